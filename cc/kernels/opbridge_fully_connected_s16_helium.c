/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED with int16 activations and int8 weights, Helium (MVE) variant for the Cortex-M55:
 * the dot products of opbridge_fully_connected_s16.c, eight int16 x int8 products per step. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include <arm_mve.h>

#include "cc/kernels/opbridge_fully_connected_s16_internal.h"

/* The weights widen to int16 as they load (VLDRB.S16); each product fits 32 bits and VMLALDAVA
 * adds them into a 64-bit sum without rounding, so the order of the terms does not matter. The
 * last step's lanes past `depth` are predicated off: they read nothing. */
int64_t opbridge_dot_s16_s8_helium(const int16_t *input, const int8_t *weights, int32_t depth) {
  int64_t sum = 0;
  int32_t d = 0;
  for (; d + 8 <= depth; d += 8) {
    sum = vmlaldavaq_s16(sum, vld1q_s16(input + d), vldrbq_s16(weights + d));
  }
  if (d < depth) {
    const mve_pred16_t lanes = vctp16q((uint32_t)(depth - d));
    sum = vmlaldavaq_p_s16(sum, vldrhq_z_s16(input + d, lanes), vldrbq_z_s16(weights + d, lanes), lanes);
  }
  return sum;
}

/* VMLADAVA keeps the low 32 bits of the exact sum: the wrapping int32 accumulator. */
uint32_t opbridge_dot_s16_s8_wrapping_helium(const int16_t *input, const int8_t *weights, int32_t depth) {
  int32_t sum = 0;
  int32_t d = 0;
  for (; d + 8 <= depth; d += 8) {
    sum = vmladavaq_s16(sum, vld1q_s16(input + d), vldrbq_s16(weights + d));
  }
  if (d < depth) {
    const mve_pred16_t lanes = vctp16q((uint32_t)(depth - d));
    sum = vmladavaq_p_s16(sum, vldrhq_z_s16(input + d, lanes), vldrbq_z_s16(weights + d, lanes), lanes);
  }
  return (uint32_t)sum;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
