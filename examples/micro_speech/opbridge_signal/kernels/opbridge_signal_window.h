/* SPDX-License-Identifier: Apache-2.0 */
/* TFLM's SignalWindow: multiplies the samples by a window, bit-exact with TFLM. */
#ifndef OPBRIDGE_SIGNAL_WINDOW_H_
#define OPBRIDGE_SIGNAL_WINDOW_H_

#include <stdint.h>

/* output[i] = saturate_int16((input[i] * weights[i % weight_count]) >> shift)
 * for i < sample_count, a multiple of weight_count. Returns nonzero on
 * invalid sizes or a shift outside [0, 31]. */
int32_t opbridge_signal_window(const int16_t *input, const int16_t *weights, int32_t weight_count,
                               int32_t sample_count, int32_t shift, int16_t *output);

#endif /* OPBRIDGE_SIGNAL_WINDOW_H_ */
