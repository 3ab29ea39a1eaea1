/* SPDX-License-Identifier: Apache-2.0 */
/* MEAN's int8 spatial sums, Helium (MVE) variant for the Cortex-M55. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include <arm_mve.h>

#include "cc/kernels/opbridge_kernels_internal.h"

/* A block of 16 channels at a time (the last one lane-predicated): its sums stay in four registers
 * while every position's 16 bytes are added to them (four widening loads, VLDRB.S32, and four adds
 * per position), then go to memory once. Integer sums: the same in any order. */
void opbridge_spatial_sums_s8_helium(int32_t *sums, const int8_t *image, int32_t positions, int32_t channels) {
  for (int32_t c = 0; c < channels; c += 16) {
    const int32_t left = channels - c;
    const mve_pred16_t p0 = vctp32q((uint32_t)left);
    const mve_pred16_t p1 = vctp32q((uint32_t)(left > 4 ? left - 4 : 0));
    const mve_pred16_t p2 = vctp32q((uint32_t)(left > 8 ? left - 8 : 0));
    const mve_pred16_t p3 = vctp32q((uint32_t)(left > 12 ? left - 12 : 0));
    int32x4_t acc0 = vldrwq_z_s32(sums + c, p0);
    int32x4_t acc1 = vldrwq_z_s32(sums + c + 4, p1);
    int32x4_t acc2 = vldrwq_z_s32(sums + c + 8, p2);
    int32x4_t acc3 = vldrwq_z_s32(sums + c + 12, p3);
    const int8_t *x = image + c;
    if (left >= 16) {
      for (int32_t p = 0; p < positions; ++p, x += channels) {
        acc0 = vaddq_s32(acc0, vldrbq_s32(x));
        acc1 = vaddq_s32(acc1, vldrbq_s32(x + 4));
        acc2 = vaddq_s32(acc2, vldrbq_s32(x + 8));
        acc3 = vaddq_s32(acc3, vldrbq_s32(x + 12));
      }
    } else {
      for (int32_t p = 0; p < positions; ++p, x += channels) {
        acc0 = vaddq_s32(acc0, vldrbq_z_s32(x, p0));
        acc1 = vaddq_s32(acc1, vldrbq_z_s32(x + 4, p1));
        acc2 = vaddq_s32(acc2, vldrbq_z_s32(x + 8, p2));
        acc3 = vaddq_s32(acc3, vldrbq_z_s32(x + 12, p3));
      }
    }
    vstrwq_p_s32(sums + c, acc0, p0);
    vstrwq_p_s32(sums + c + 4, acc1, p1);
    vstrwq_p_s32(sums + c + 8, acc2, p2);
    vstrwq_p_s32(sums + c + 12, acc3, p3);
  }
}

/* The output stage on four sums a vector (the last one lane-predicated): VSHL, VQRDMULH, then VRSHL
 * after subtracting 1 from negative values where the shift is to the right, so that halves round
 * away from zero as RoundingDivideByPOT does; offset, saturating narrow by the clamp. */
void opbridge_mean_outputs_s8_helium(const int32_t *sums, int32_t outputs, int32_t centring, int32_t multiplier,
                                     int32_t shift, int32_t output_zero_point, int8_t *output) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift < 0 ? shift : 0;
  const int32x4_t round = vdupq_n_s32(right < 0 ? -1 : 0);
  const int32x4_t minimum = vdupq_n_s32(-128);
  const int32x4_t maximum = vdupq_n_s32(127);
  for (int32_t o = 0; o < outputs; o += 4) {
    const mve_pred16_t lanes = vctp32q((uint32_t)(outputs - o));
    int32x4_t acc = vsubq_n_s32(vldrwq_z_s32(sums + o, lanes), centring);
    acc = vshlq_r_s32(acc, left);
    acc = vqrdmulhq_n_s32(acc, multiplier);
    acc = vqaddq_s32(acc, vandq_s32(vshrq_n_s32(acc, 31), round));
    acc = vrshlq_n_s32(acc, right);
    acc = vaddq_n_s32(acc, output_zero_point);
    vstrbq_p_s32(output + o, vminq_s32(vmaxq_s32(acc, minimum), maximum), lanes);
  }
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
