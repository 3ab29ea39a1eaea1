/* SPDX-License-Identifier: Apache-2.0 */
/* TFLM's SignalFftAutoScale: scales samples up by a power of two ahead of the
 * fixed-point FFT, bit-exact with TFLM. */
#ifndef OPBRIDGE_SIGNAL_FFT_AUTO_SCALE_H_
#define OPBRIDGE_SIGNAL_FFT_AUTO_SCALE_H_

#include <stdint.h>

/* output[i] = input[i] << *scale_bits (stored as int16), with *scale_bits the
 * largest shift that keeps TFLM's peak of the input within int16 (0 for a
 * silent input). Returns nonzero on a negative count. */
int32_t opbridge_signal_fft_auto_scale(const int16_t *input, int32_t count, int16_t *output, int32_t *scale_bits);

#endif /* OPBRIDGE_SIGNAL_FFT_AUTO_SCALE_H_ */
