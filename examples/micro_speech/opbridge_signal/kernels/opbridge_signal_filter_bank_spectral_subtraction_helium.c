/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFilterBankSpectralSubtraction's Helium loop: four channels a step, the same arithmetic as
 * the C in opbridge_signal_filter_bank_spectral_subtraction.c, lane by lane. */
#include "opbridge_signal_helium_internal.h"

#if OPBRIDGE_KERNELS_HELIUM
int32_t opbridge_signal_filter_bank_spectral_subtraction_helium(
    const opbridge_signal_spectral_subtraction_config *config, const uint32_t *input, uint32_t *output,
    uint32_t *noise_estimate_state) {
  const int32_t smoothing_bits = (int32_t)config->smoothing_bits;
  const int32_t fraction_bits = (int32_t)config->spectral_subtraction_bits;
  /* Even channels (lanes 0 and 2 of a step that starts at an even channel) take the first pair. */
  const mve_pred16_t even_lanes = vcmpeqq_n_u32(vandq_u32(vidupq_n_u32(0, 1), vdupq_n_u32(1)), 0);
  const uint32x4_t smoothing =
      vpselq_u32(vdupq_n_u32(config->smoothing), vdupq_n_u32(config->alternate_smoothing), even_lanes);
  const uint32x4_t one_minus_smoothing = vpselq_u32(vdupq_n_u32(config->one_minus_smoothing),
                                                    vdupq_n_u32(config->alternate_one_minus_smoothing), even_lanes);
  int32_t i = 0;
  for (; i + 4 <= config->num_channels; i += 4) {
    const uint32x4_t signal = vld1q_u32(input + i);
    const uint32x4_t previous = vld1q_u32(noise_estimate_state + i);
    const uint32x4_t scaled = vshlq_r_u32(signal, smoothing_bits); /* wraps as the uint32 shift does */
    /* scaled * smoothing + previous * one_minus_smoothing in 64 bits (high and low words, the low
     * words' carry into the high), modulo 2^64, then shifted down to 32 bits. */
    const uint32x4_t low1 = vmulq_u32(scaled, smoothing);
    const uint32x4_t low = vaddq_u32(low1, vmulq_u32(previous, one_minus_smoothing));
    const uint32x4_t carry = vpselq_u32(vdupq_n_u32(1), vdupq_n_u32(0), vcmphiq_u32(low1, low));
    const uint32x4_t high = vaddq_u32(vaddq_u32(vmulhq_u32(scaled, smoothing), vmulhq_u32(previous, one_minus_smoothing)),
                                      carry);
    const uint32x4_t estimate = opbridge_signal_helium_narrow_shift(high, low, fraction_bits);
    /* Never subtract more than the signal. */
    const uint32x4_t subtracted_estimate = vminq_u32(estimate, scaled);
    const uint32x4_t remainder = vshlq_r_u32(vsubq_u32(scaled, subtracted_estimate), -smoothing_bits);
    const uint32x4_t minimum = vdupq_n_u32(config->min_signal_remaining);
    const uint32x4_t floor =
        opbridge_signal_helium_narrow_shift(vmulhq_u32(signal, minimum), vmulq_u32(signal, minimum), fraction_bits);
    vst1q_u32(noise_estimate_state + i, config->clamping ? subtracted_estimate : estimate);
    vst1q_u32(output + i, vmaxq_u32(remainder, floor));
  }
  return i;
}
#else
/* ISO C forbids an empty translation unit. */
typedef int opbridge_signal_filter_bank_spectral_subtraction_helium_unused;
#endif
