/* SPDX-License-Identifier: Apache-2.0 */
/* SignalEnergy, bit-exact with TFLM's SpectrumToEnergy. */
#include "opbridge_signal_energy.h"
#include "opbridge_signal_integer.h"

int32_t opbridge_signal_energy(const int16_t *spectrum, int32_t start_index, int32_t end_index, int32_t bin_count,
                               uint32_t *output) {
  int32_t i;
  if (start_index < 0 || end_index < start_index || end_index > bin_count) {
    return 1;
  }
  i = 0;
#if OPBRIDGE_SIGNAL_HELIUM
  {
    /* Four bins a step: the squares of the real (even) and imaginary (odd) lanes in int32,
     * added as uint32 (wrapping alike); bins outside [start, end) stored as 0. */
    const uint32x4_t lanes = vidupq_n_u32(0, 1);
    for (; i + 4 <= bin_count; i += 4) {
      const int16x8_t x = vld1q_s16(spectrum + 2 * i);
      const uint32x4_t energy = vaddq_u32(vreinterpretq_u32_s32(vmullbq_int_s16(x, x)),
                                          vreinterpretq_u32_s32(vmulltq_int_s16(x, x)));
      const uint32x4_t bin = vaddq_n_u32(lanes, (uint32_t)i);
      const mve_pred16_t inside = vcmpcsq_n_u32(bin, (uint32_t)start_index) & vcmphiq_u32(vdupq_n_u32((uint32_t)end_index), bin);
      vst1q_u32(output + i, vpselq_u32(energy, vdupq_n_u32(0), inside));
    }
  }
#endif
  for (; i < bin_count; ++i) {
    const int32_t real = spectrum[2 * i];
    const int32_t imag = spectrum[2 * i + 1];
    /* Each square fits int32; their sum may reach 2^31, so add as uint32
     * (TFLM's int32 sum wraps to the same bits). Bins outside the range are
     * zeroed so the output does not depend on what the buffer held. */
    output[i] = (i >= start_index && i < end_index) ? (uint32_t)(real * real) + (uint32_t)(imag * imag) : 0u;
  }
  return 0;
}
