/* SPDX-License-Identifier: Apache-2.0 */
/* SQUARED_DIFFERENCE on float32, int32 and int8 (see opbridge_squared_difference.h),
 * in the broadcast loop of the other binary kernels (opbridge_kernels_internal.h). */
#include "cc/kernels/opbridge_squared_difference.h"

#include <stddef.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernels_internal.h"

static inline float opbridge_squared_difference_op_f32(float a, float b) {
  const float difference = a - b;
  return difference * difference;
}

/* Unsigned arithmetic wraps without undefined behaviour; the conversion back is two's complement on every
 * compiler we use. */
static inline int32_t opbridge_squared_difference_op_s32(int32_t a, int32_t b) {
  const uint32_t difference = (uint32_t)a - (uint32_t)b;
  return (int32_t)(difference * difference);
}

int32_t opbridge_squared_difference_f32(const opbridge_broadcast_4d *params, const float *input1,
                                        const float *input2, float *output) {
  if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||
      !opbridge_shape_4d_valid(params->output_shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  OPBRIDGE_BROADCAST_LOOP(float, params, input1, input2, output, opbridge_squared_difference_op_f32(a, b));
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_squared_difference_s32(const opbridge_broadcast_4d *params, const int32_t *input1,
                                        const int32_t *input2, int32_t *output) {
  if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||
      !opbridge_shape_4d_valid(params->output_shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  OPBRIDGE_BROADCAST_LOOP(int32_t, params, input1, input2, output, opbridge_squared_difference_op_s32(a, b));
  return OPBRIDGE_STATUS_OK;
}

static inline int8_t opbridge_squared_difference_op_s8(const opbridge_squared_difference_s8_params *params, int32_t a,
                                                       int32_t b) {
  /* |centred| <= 255, so the shifted inputs fit in 16 bits and the squared difference in 31. */
  const int32_t shifted1 = (a + params->input1_offset) * (1 << params->left_shift);
  const int32_t shifted2 = (b + params->input2_offset) * (1 << params->left_shift);
  const int32_t scaled1 =
      opbridge_multiply_by_quantized_multiplier(shifted1, params->input1_multiplier, params->input1_shift);
  const int32_t scaled2 =
      opbridge_multiply_by_quantized_multiplier(shifted2, params->input2_multiplier, params->input2_shift);
  const int32_t difference = scaled1 - scaled2;
  const int32_t squared = difference * difference;
  const int32_t value =
      opbridge_multiply_by_quantized_multiplier(squared, params->output_multiplier, params->output_shift) +
      params->output_offset;
  return opbridge_clamp_s8(value, -128, 127);
}

int32_t opbridge_squared_difference_s8(const opbridge_squared_difference_s8_params *params, const int8_t *input1,
                                       const int8_t *input2, int8_t *output) {
  if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||
      !opbridge_shape_4d_valid(params->broadcast.output_shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (params->left_shift < 0 || params->left_shift > 7 || params->input1_shift > 0 || params->input2_shift > 0 ||
      params->output_shift > 30 || params->output_shift < -31) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  OPBRIDGE_BROADCAST_LOOP(int32_t, &params->broadcast, input1, input2, output,
                          opbridge_squared_difference_op_s8(params, a, b));
  return OPBRIDGE_STATUS_OK;
}
