/* SPDX-License-Identifier: Apache-2.0 */
/* PRELU and POW on float32 with 4-D broadcasting (see opbridge_binary_f32.h):
 * one comparison and multiply, or one powf, per element, in the broadcast
 * loop the other binary kernels use (opbridge_kernels_internal.h). */
#include "cc/kernels/opbridge_binary_f32.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_kernels_internal.h"

/* POW's domain-error NaN, by its bits rather than the FPU's default NaN (ARM: 0x7FC00000, x86: 0xFFC00000),
 * so that every platform writes the NaN golden programs expect (__builtin_nanf("")). */
static inline float opbridge_binary_domain_nan_f32(void) {
  const uint32_t bits = 0x7FC00000u;
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

/* TFLite Micro's float PRELU: x >= 0 keeps -0.0; NaN fails the comparison and takes x * alpha. */
static inline float opbridge_prelu_op_f32(float x, float alpha) { return x >= 0.0f ? x : x * alpha; }

/* powf gives NaN from non-NaN operands only for its domain error (finite base < 0, finite non-integer
 * exponent); that NaN is replaced by the fixed one. */
static inline float opbridge_pow_op_f32(float base, float exponent) {
  const float result = powf(base, exponent);
  if (isnan(result) && !isnan(base) && !isnan(exponent)) {
    return opbridge_binary_domain_nan_f32();
  }
  return result;
}

#define OPBRIDGE_DEFINE_BINARY_F32(NAME)                                                            \
  int32_t opbridge_##NAME##_f32(const opbridge_broadcast_4d *params, const float *input1,           \
                                const float *input2, float *output) {                               \
    if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||                     \
        !opbridge_shape_4d_valid(params->output_shape)) {                                           \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                      \
    }                                                                                               \
    OPBRIDGE_BROADCAST_LOOP(float, params, input1, input2, output, opbridge_##NAME##_op_f32(a, b)); \
    return OPBRIDGE_STATUS_OK;                                                                      \
  }

OPBRIDGE_DEFINE_BINARY_F32(prelu)
OPBRIDGE_DEFINE_BINARY_F32(pow)
