/* SPDX-License-Identifier: Apache-2.0 */
/* SignalEnergy, bit-exact with TFLM's SpectrumToEnergy. */
#include "opbridge_signal_energy.h"
#include "opbridge_signal_dsp_internal.h"
#include "opbridge_signal_integer.h"

int32_t opbridge_signal_energy(const int16_t *spectrum, int32_t start_index, int32_t end_index, int32_t bin_count,
                               uint32_t *output) {
  int32_t i;
  if (start_index < 0 || end_index < start_index || end_index > bin_count) {
    return 1;
  }
  i = 0;
#if OPBRIDGE_KERNELS_DSP
  /* SMUAD, a bin a word (opbridge_signal_energy_dsp.c). */
  opbridge_signal_energy_dsp(spectrum, start_index, end_index, bin_count, output);
  i = bin_count;
#endif
#if OPBRIDGE_KERNELS_HELIUM
  {
    /* Only the bins in [start, end): four a step, the squares of the real (even) and imaginary (odd)
     * lanes in int32 (VMULLB/VMULLT), added as uint32 (wrapping alike); the last step's lanes
     * predicated. The bins outside are stored as 0, four a VSTRW. */
    const uint32x4_t zero = vdupq_n_u32(0);
    for (i = 0; i < start_index; i += 4) {
      vstrwq_p_u32(output + i, zero, vctp32q((uint32_t)(start_index - i)));
    }
    for (i = start_index; i + 4 <= end_index; i += 4) {
      const int16x8_t x = vld1q_s16(spectrum + 2 * i);
      vst1q_u32(output + i, vaddq_u32(vreinterpretq_u32_s32(vmullbq_int_s16(x, x)),
                                      vreinterpretq_u32_s32(vmulltq_int_s16(x, x))));
    }
    if (i < end_index) {
      const int16x8_t x = vldrhq_z_s16(spectrum + 2 * i, vctp16q((uint32_t)(2 * (end_index - i))));
      vstrwq_p_u32(output + i,
                   vaddq_u32(vreinterpretq_u32_s32(vmullbq_int_s16(x, x)),
                             vreinterpretq_u32_s32(vmulltq_int_s16(x, x))),
                   vctp32q((uint32_t)(end_index - i)));
    }
    for (i = end_index; i < bin_count; i += 4) {
      vstrwq_p_u32(output + i, zero, vctp32q((uint32_t)(bin_count - i)));
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
