/* SPDX-License-Identifier: Apache-2.0 */
/* float32 element-wise operators (TFLite Micro's float reference kernels):
 * ADD, SUB, MUL and DIV with 4-D broadcasting and the fused activation's
 * clamp, MINIMUM and MAXIMUM, and RELU, RELU6, LOGISTIC and TANH. Each
 * result is one float32 operation (C99: no contraction into fused
 * multiply-adds), so python/opbridge/ops/shared/float32.py computes the same
 * bits; LOGISTIC and TANH call libm's expf and tanhf. */
#include <math.h>
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_f32.h"
#include "cc/kernels/opbridge_kernels_internal.h"

/* TFLite's ActivationFunctionWithMinMax: std::min(std::max(x, low), high). */
static inline float opbridge_clamp_f32(float value, float low, float high) {
  const float raised = value < low ? low : value;
  return high < raised ? high : raised;
}

static inline float opbridge_add_op_f32(float a, float b) { return a + b; }
static inline float opbridge_sub_op_f32(float a, float b) { return a - b; }
static inline float opbridge_mul_op_f32(float a, float b) { return a * b; }
static inline float opbridge_div_op_f32(float a, float b) { return a / b; }
static inline float opbridge_minimum_op_f32(float a, float b) { return a < b ? a : b; }
static inline float opbridge_maximum_op_f32(float a, float b) { return a > b ? a : b; }

/* The bounds are compared with `!(low <= high)` so that a NaN bound is refused too. */
#define OPBRIDGE_DEFINE_ARITHMETIC_F32(NAME)                                                       \
  int32_t opbridge_##NAME##_f32(const opbridge_arithmetic_f32_params *params, const float *input1, \
                                const float *input2, float *output) {                              \
    if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||                    \
        !opbridge_shape_4d_valid(params->broadcast.output_shape) ||                                \
        !(params->activation_min <= params->activation_max)) {                                     \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                     \
    }                                                                                              \
    const float low = params->activation_min;                                                      \
    const float high = params->activation_max;                                                     \
    OPBRIDGE_BROADCAST_LOOP(float, &params->broadcast, input1, input2, output,                     \
                            opbridge_clamp_f32(opbridge_##NAME##_op_f32(a, b), low, high));        \
    return OPBRIDGE_STATUS_OK;                                                                     \
  }

OPBRIDGE_DEFINE_ARITHMETIC_F32(add)
OPBRIDGE_DEFINE_ARITHMETIC_F32(sub)
OPBRIDGE_DEFINE_ARITHMETIC_F32(mul)
OPBRIDGE_DEFINE_ARITHMETIC_F32(div)

#define OPBRIDGE_DEFINE_MIN_MAX_F32(NAME)                                                           \
  int32_t opbridge_##NAME##_f32(const opbridge_broadcast_4d *params, const float *input1,           \
                                const float *input2, float *output) {                               \
    if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||                     \
        !opbridge_shape_4d_valid(params->output_shape)) {                                           \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                      \
    }                                                                                               \
    OPBRIDGE_BROADCAST_LOOP(float, params, input1, input2, output, opbridge_##NAME##_op_f32(a, b)); \
    return OPBRIDGE_STATUS_OK;                                                                      \
  }

OPBRIDGE_DEFINE_MIN_MAX_F32(minimum)
OPBRIDGE_DEFINE_MIN_MAX_F32(maximum)

static inline float opbridge_relu_op_f32(float x) { return x < 0.0f ? 0.0f : x; }
static inline float opbridge_relu6_op_f32(float x) { return x > 6.0f ? 6.0f : (x < 0.0f ? 0.0f : x); }

/* TFLite's reference Logistic: its cut-offs avoid expf's overflow. */
static inline float opbridge_logistic_op_f32(float x) {
  if (x > 16.619047164916992188f) {
    return 1.0f;
  }
  if (x < -9.0f) {
    return expf(x);
  }
  return 1.0f / (1.0f + expf(-x));
}

static inline float opbridge_tanh_op_f32(float x) { return tanhf(x); }

#define OPBRIDGE_DEFINE_UNARY_F32(NAME)                                            \
  int32_t opbridge_##NAME##_f32(int32_t size, const float *input, float *output) { \
    if (input == NULL || output == NULL || size < 0) {                             \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                     \
    }                                                                              \
    for (int32_t i = 0; i < size; ++i) {                                           \
      output[i] = opbridge_##NAME##_op_f32(input[i]);                              \
    }                                                                              \
    return OPBRIDGE_STATUS_OK;                                                     \
  }

OPBRIDGE_DEFINE_UNARY_F32(relu)
OPBRIDGE_DEFINE_UNARY_F32(relu6)
OPBRIDGE_DEFINE_UNARY_F32(logistic)
OPBRIDGE_DEFINE_UNARY_F32(tanh)
