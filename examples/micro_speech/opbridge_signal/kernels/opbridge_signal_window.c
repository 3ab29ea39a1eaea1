/* SPDX-License-Identifier: Apache-2.0 */
/* SignalWindow, bit-exact with TFLM's ApplyWindow. */
#include "opbridge_signal_window.h"
#include "opbridge_signal_dsp_internal.h"
#include "opbridge_signal_integer.h"

int32_t opbridge_signal_window(const int16_t *input, const int16_t *weights, int32_t weight_count,
                               int32_t sample_count, int32_t shift, int16_t *output) {
  int32_t start;
  if (weight_count < 1 || sample_count < 0 || sample_count % weight_count != 0 || shift < 0 || shift > 31) {
    return 1;
  }
  /* TFLM windows each run of weight_count samples (e.g. each batch row) alike. */
  for (start = 0; start < sample_count; start += weight_count) {
#if OPBRIDGE_KERNELS_DSP
    /* Two samples a word with SMULBB/SMULTT, SSAT and PKHBT (opbridge_signal_window_dsp.c). */
    opbridge_signal_window_dsp(input + start, weights, weight_count, shift, output + start);
#else
    int32_t i = 0;
#if OPBRIDGE_KERNELS_HELIUM
    /* Eight samples a step: even and odd lanes multiplied into int32 (VMULLB/VMULLT), shifted
     * right arithmetically (floor, as shift_right), narrowed back with saturation to int16. */
    for (; i + 8 <= weight_count; i += 8) {
      const int16x8_t x = vld1q_s16(input + start + i);
      const int16x8_t w = vld1q_s16(weights + i);
      const int32x4_t even = vshlq_r_s32(vmullbq_int_s16(x, w), -shift);
      const int32x4_t odd = vshlq_r_s32(vmulltq_int_s16(x, w), -shift);
      vst1q_s16(output + start + i, vqmovntq_s32(vqmovnbq_s32(vdupq_n_s16(0), even), odd));
    }
#endif
    for (; i < weight_count; ++i) {
      /* int16 * int16 always fits int32. */
      const int32_t scaled = opbridge_signal_shift_right((int32_t)input[start + i] * weights[i], shift);
      output[start + i] = (int16_t)(scaled < INT16_MIN ? INT16_MIN : scaled > INT16_MAX ? INT16_MAX : scaled);
    }
#endif
  }
  return 0;
}
