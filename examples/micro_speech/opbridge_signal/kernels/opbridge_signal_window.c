/* SPDX-License-Identifier: Apache-2.0 */
/* SignalWindow, bit-exact with TFLM's ApplyWindow. */
#include "opbridge_signal_window.h"
#include "opbridge_signal_integer.h"

int32_t opbridge_signal_window(const int16_t *input, const int16_t *weights, int32_t weight_count,
                               int32_t sample_count, int32_t shift, int16_t *output) {
  int32_t start;
  if (weight_count < 1 || sample_count < 0 || sample_count % weight_count != 0 || shift < 0 || shift > 31) {
    return 1;
  }
  /* TFLM windows each run of weight_count samples (e.g. each batch row) alike. */
  for (start = 0; start < sample_count; start += weight_count) {
    int32_t i;
    for (i = 0; i < weight_count; ++i) {
      /* int16 * int16 always fits int32. */
      const int32_t scaled = opbridge_signal_shift_right((int32_t)input[start + i] * weights[i], shift);
      output[start + i] = (int16_t)(scaled < INT16_MIN ? INT16_MIN : scaled > INT16_MAX ? INT16_MAX : scaled);
    }
  }
  return 0;
}
