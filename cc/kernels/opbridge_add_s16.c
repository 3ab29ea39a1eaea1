/* SPDX-License-Identifier: Apache-2.0 */
/* ADD with int16 inputs and output (TFLite's 16x8 quantization), bit for bit with TFLite Micro's general int16
 * path (AddElementwise and BroadcastAdd6DSlow with left_shift 15; TFLite Micro never takes the power-of-two one). */
#include <stddef.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernels_s16.h"

int32_t opbridge_add_s16(const opbridge_add_s8_params *params, const int16_t *input1, const int16_t *input2,
                         int16_t *output) {
  if (params == NULL || input1 == NULL || input2 == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (params->left_shift < 0 || params->left_shift > 15 || params->input1_shift > 0 || params->input2_shift > 0 ||
      params->output_shift > 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *shape = params->output_shape;
  const int32_t *s1 = params->input1_strides;
  const int32_t *s2 = params->input2_strides;
  int32_t out_index = 0;
  for (int32_t i0 = 0; i0 < shape[0]; ++i0) {
    for (int32_t i1 = 0; i1 < shape[1]; ++i1) {
      for (int32_t i2 = 0; i2 < shape[2]; ++i2) {
        for (int32_t i3 = 0; i3 < shape[3]; ++i3) {
          const int32_t a = input1[i0 * s1[0] + i1 * s1[1] + i2 * s1[2] + i3 * s1[3]];
          const int32_t b = input2[i0 * s2[0] + i1 * s2[1] + i2 * s2[2] + i3 * s2[3]];
          /* Shifted as uint32 (a wrap, as TFLite's int32 multiply in practice, only for zero points far from 0). */
          const int32_t shifted1 = (int32_t)((uint32_t)(a + params->input1_offset) << params->left_shift);
          const int32_t shifted2 = (int32_t)((uint32_t)(b + params->input2_offset) << params->left_shift);
          const int32_t scaled1 =
              opbridge_multiply_by_quantized_multiplier(shifted1, params->input1_multiplier, params->input1_shift);
          const int32_t scaled2 =
              opbridge_multiply_by_quantized_multiplier(shifted2, params->input2_multiplier, params->input2_shift);
          int32_t sum = opbridge_multiply_by_quantized_multiplier(scaled1 + scaled2, params->output_multiplier,
                                                                  params->output_shift) +
                        params->output_offset;
          sum = sum < params->activation_min ? params->activation_min : sum;
          sum = sum > params->activation_max ? params->activation_max : sum;
          output[out_index++] = (int16_t)sum;
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
