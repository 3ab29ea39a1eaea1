/* SPDX-License-Identifier: Apache-2.0 */
/* NEG, EXP, LOG, SQRT and ABS on float32 (see opbridge_math_f32.h): one
 * libm call or sign operation per element, as TFLite Micro's kernels do. */
#include "cc/kernels/opbridge_math_f32.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The NaN of LOG and SQRT below 0, by its bits rather than the FPU's default NaN (ARM: 0x7FC00000, x86:
 * 0xFFC00000), so that every platform writes the NaN golden programs expect (__builtin_nanf("")). */
static inline float opbridge_math_domain_nan_f32(void) {
  const uint32_t bits = 0x7FC00000u;
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

static inline float opbridge_math_neg_op_f32(float x) { return -x; }
static inline float opbridge_math_exp_op_f32(float x) { return expf(x); }

/* x < 0 is false for NaN (it propagates through logf and sqrtf) and for -0.0 (logf: -inf, sqrtf: -0.0). */
static inline float opbridge_math_log_op_f32(float x) {
  return x < 0.0f ? opbridge_math_domain_nan_f32() : logf(x);
}
static inline float opbridge_math_sqrt_op_f32(float x) {
  return x < 0.0f ? opbridge_math_domain_nan_f32() : sqrtf(x);
}

static inline float opbridge_math_abs_op_f32(float x) { return fabsf(x); }

/* One kernel per operation: element i is read before it is written, so output may alias input. */
#define OPBRIDGE_MATH_DEFINE_UNARY_F32(NAME)                                       \
  int32_t opbridge_##NAME##_f32(int32_t size, const float *input, float *output) { \
    if (input == NULL || output == NULL || size < 0) {                             \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                     \
    }                                                                              \
    for (int32_t i = 0; i < size; ++i) {                                           \
      output[i] = opbridge_math_##NAME##_op_f32(input[i]);                         \
    }                                                                              \
    return OPBRIDGE_STATUS_OK;                                                     \
  }

OPBRIDGE_MATH_DEFINE_UNARY_F32(neg)
OPBRIDGE_MATH_DEFINE_UNARY_F32(exp)
OPBRIDGE_MATH_DEFINE_UNARY_F32(log)
OPBRIDGE_MATH_DEFINE_UNARY_F32(sqrt)
OPBRIDGE_MATH_DEFINE_UNARY_F32(abs)
