/* SPDX-License-Identifier: Apache-2.0 */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"

/* Addition (sign = 1) or subtraction (sign = -1) of two rescaled inputs. */
static int32_t opbridge_add_or_sub_s8(const opbridge_add_s8_params *params, const int8_t *input1,
                                      const int8_t *input2, int8_t *output, int32_t sign) {
  if (params == NULL || input1 == NULL || input2 == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (params->left_shift < 0 || params->left_shift > 24 || params->input1_shift > 0 || params->input2_shift > 0 ||
      params->output_shift > 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *shape = params->output_shape;
  int32_t out_index = 0;
  for (int32_t i0 = 0; i0 < shape[0]; ++i0) {
    for (int32_t i1 = 0; i1 < shape[1]; ++i1) {
      for (int32_t i2 = 0; i2 < shape[2]; ++i2) {
        for (int32_t i3 = 0; i3 < shape[3]; ++i3) {
          const int32_t *s1 = params->input1_strides;
          const int32_t *s2 = params->input2_strides;
          const int32_t a = input1[i0 * s1[0] + i1 * s1[1] + i2 * s1[2] + i3 * s1[3]];
          const int32_t b = input2[i0 * s2[0] + i1 * s2[1] + i2 * s2[2] + i3 * s2[3]];
          const int32_t shifted1 = (a + params->input1_offset) * (1 << params->left_shift);
          const int32_t shifted2 = (b + params->input2_offset) * (1 << params->left_shift);
          const int32_t scaled1 =
              opbridge_multiply_by_quantized_multiplier(shifted1, params->input1_multiplier, params->input1_shift);
          const int32_t scaled2 =
              opbridge_multiply_by_quantized_multiplier(shifted2, params->input2_multiplier, params->input2_shift);
          const int32_t combined = sign > 0 ? scaled1 + scaled2 : scaled1 - scaled2;
          const int32_t sum = opbridge_multiply_by_quantized_multiplier(combined, params->output_multiplier,
                                                                        params->output_shift);
          output[out_index++] =
              opbridge_clamp_s8(sum + params->output_offset, params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_add_s8(const opbridge_add_s8_params *params, const int8_t *input1, const int8_t *input2,
                        int8_t *output) {
  return opbridge_add_or_sub_s8(params, input1, input2, output, 1);
}

int32_t opbridge_sub_s8(const opbridge_add_s8_params *params, const int8_t *input1, const int8_t *input2,
                        int8_t *output) {
  return opbridge_add_or_sub_s8(params, input1, input2, output, -1);
}
