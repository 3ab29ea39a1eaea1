/* SPDX-License-Identifier: Apache-2.0 */
/* SignalPCAN's Helium loop: four channels a step, the same arithmetic as the C in
 * opbridge_signal_pcan.c, lane by lane. */
#include "opbridge_signal_helium_internal.h"

#if OPBRIDGE_KERNELS_HELIUM
/* Octaves 2..32 take entries up to 4 * 32 - 6 + 2: with this many every noise level has its three. */
#define PCAN_FULL_LUT 125

int32_t opbridge_signal_pcan_helium(const uint32_t *input, const uint32_t *noise_estimate, const int16_t *gain_lut,
                                    int32_t gain_lut_length, int32_t snr_shift, int32_t num_channels,
                                    uint32_t *output) {
  int32_t i = 0;
  if (gain_lut_length < PCAN_FULL_LUT) {
    return 0; /* the C loop reports the entry that is missing */
  }
  for (; i + 4 <= num_channels; i += 4) {
    const uint32x4_t noise = vld1q_u32(noise_estimate + i);
    /* The octave's three coefficients: bits = bit length, first = 4 bits - 6 (bits at least 2, so that
     * the lanes of noise 0 and 1, which read their entry directly, gather inside the table too). */
    const int32x4_t bits =
        vmaxq_s32(vsubq_s32(vdupq_n_s32(32), vreinterpretq_s32_u32(vclzq_u32(noise))), vdupq_n_s32(2));
    const uint32x4_t first = vreinterpretq_u32_s32(vsubq_s32(vshlq_n_s32(bits, 2), vdupq_n_s32(6)));
    /* The 10 bits below the leading one: VSHL by 11 - bits shifts left, or right (logically) below. */
    const int32x4_t position =
        vreinterpretq_s32_u32(vandq_u32(vshlq_u32(noise, vsubq_s32(vdupq_n_s32(11), bits)), vdupq_n_u32(0x3FF)));
    const int32x4_t constant = vldrhq_gather_shifted_offset_s32(gain_lut, first);
    const int32x4_t linear = vldrhq_gather_shifted_offset_s32(gain_lut, vaddq_n_u32(first, 1));
    const int32x4_t quadratic = vldrhq_gather_shifted_offset_s32(gain_lut, vaddq_n_u32(first, 2));
    /* floor(quadratic * position / 32) + linear * 32, then floor((slope * position + 2^14) / 2^15):
     * VSHR.S32 is the arithmetic (floor) shift; the products wrap in int32 as the C's do. */
    const int32x4_t slope = vaddq_s32(vshrq_n_s32(vmulq_s32(quadratic, position), 5), vshlq_n_s32(linear, 5));
    const int32x4_t curve =
        vaddq_s32(vshrq_n_s32(vaddq_n_s32(vmulq_s32(slope, position), 1 << 14), 15), constant);
    /* Noise 0, 1 and 2 read their entry directly. */
    const mve_pred16_t small = vcmpcsq_u32(vdupq_n_u32(2), noise);
    const int32x4_t direct = vldrhq_gather_shifted_offset_z_s32(gain_lut, noise, small);
    /* The low 16 bits as a signed value, widened modulo 2^32 (a negative gain becomes a huge one). */
    const int32x4_t value = vpselq_s32(direct, curve, small);
    const uint32x4_t gain = vreinterpretq_u32_s32(vmovlbq_s16(vreinterpretq_s16_s32(value)));
    /* snr = (input * gain) >> snr_shift in 64 bits, kept as 32. */
    const uint32x4_t signal = vld1q_u32(input + i);
    const uint32x4_t snr =
        opbridge_signal_helium_narrow_shift(vmulhq_u32(signal, gain), vmulq_u32(signal, gain), snr_shift);
    /* x^2 / 4 below 2 (12 fraction bits in, 6 out), x - 1 above. */
    const uint32x4_t square = vshrq_n_u32(vmulq_u32(snr, snr), 20);
    const uint32x4_t shifted = vsubq_u32(vshrq_n_u32(snr, 6), vdupq_n_u32(64));
    vst1q_u32(output + i, vpselq_u32(square, shifted, vcmphiq_u32(vdupq_n_u32(2u << 12), snr)));
  }
  return i;
}
#else
/* ISO C forbids an empty translation unit. */
typedef int opbridge_signal_pcan_helium_unused;
#endif
