/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFilterBankLog's Helium loop: four channels a step, the same arithmetic as the C in
 * opbridge_signal_filter_bank_log.c, lane by lane. */
#include "opbridge_signal_helium_internal.h"

#if OPBRIDGE_KERNELS_HELIUM
#define LN2_Q16 UINT32_C(45426)
#define SEGMENT_SHIFT 9 /* 16 fraction bits, 7 of them the correction table's segment */

int32_t opbridge_signal_filter_bank_log_helium(const uint32_t *input, int32_t count, uint32_t input_correction_bits,
                                               uint32_t output_scale, const uint16_t *log2_correction,
                                               int16_t *output) {
  int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const uint32x4_t value = vshlq_r_u32(vld1q_u32(input + i), (int32_t)input_correction_bits);
    /* exponent = bit length - 1 (VCLZ); the mantissa is the value without its leading one. */
    const int32x4_t exponent = vsubq_s32(vdupq_n_s32(31), vreinterpretq_s32_u32(vclzq_u32(value)));
    const uint32x4_t mantissa = vbicq_u32(value, vshlq_u32(vdupq_n_u32(1), exponent));
    /* A Q16 fraction: VSHL by register shifts left for 16 - exponent >= 0, right (logically) below. */
    const uint32x4_t fraction = vshlq_u32(mantissa, vsubq_s32(vdupq_n_s32(16), exponent));
    const uint32x4_t segment = vshrq_n_u32(fraction, SEGMENT_SHIFT);
    const int32x4_t offset = vreinterpretq_s32_u32(vandq_u32(fraction, vdupq_n_u32((1u << SEGMENT_SHIFT) - 1u)));
    const int32x4_t low = vreinterpretq_s32_u32(vldrhq_gather_shifted_offset_u32(log2_correction, segment));
    const int32x4_t high =
        vreinterpretq_s32_u32(vldrhq_gather_shifted_offset_u32(log2_correction, vaddq_n_u32(segment, 1)));
    /* low + floor((high - low) * offset / 2^16): VSHR.S32 is the arithmetic (floor) shift. */
    const int32x4_t correction = vaddq_s32(low, vshrq_n_s32(vmulq_s32(vsubq_s32(high, low), offset), 16));
    const uint32x4_t log2 = vaddq_u32(vaddq_u32(vshlq_n_u32(vreinterpretq_u32_s32(exponent), 16), fraction),
                                      vreinterpretq_u32_s32(correction));
    /* (LN2 * log2 + 2^15) >> 16 is VRMULH.U32 by LN2 << 16: (a b + 2^31) >> 32 of the same product. */
    const uint32x4_t log_e = vrmulhq_u32(log2, vdupq_n_u32(LN2_Q16 << 16));
    /* The scaling wraps modulo 2^32 as in TFLM, then saturates to int16's maximum. */
    const uint32x4_t scaled = vshrq_n_u32(vaddq_n_u32(vmulq_n_u32(log_e, output_scale), 1u << 15), 16);
    const uint32x4_t saturated = vminq_u32(scaled, vdupq_n_u32(32767));
    /* No log of 0 or 1: those lanes are 0. */
    const mve_pred16_t above_one = vcmphiq_n_u32(value, 1);
    vstrhq_u32((uint16_t *)(output + i), vpselq_u32(saturated, vdupq_n_u32(0), above_one));
  }
  return i;
}
#else
/* ISO C forbids an empty translation unit. */
typedef int opbridge_signal_filter_bank_log_helium_unused;
#endif
