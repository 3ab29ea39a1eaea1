/* SPDX-License-Identifier: Apache-2.0 */
#include "cc/kernels/opbridge_leaky_relu.h"

#include <stddef.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_status.h"

int32_t opbridge_leaky_relu_s8(const opbridge_leaky_relu_s8_params *params, const int8_t *input, int8_t *output) {
  if (params == NULL || input == NULL || output == NULL || params->size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    const int32_t centred = (int32_t)input[i] - params->input_zero_point;
    const int32_t scaled =
        centred >= 0 ? opbridge_multiply_by_quantized_multiplier(centred, params->identity_multiplier,
                                                                 params->identity_shift)
                     : opbridge_multiply_by_quantized_multiplier(centred, params->alpha_multiplier, params->alpha_shift);
    int32_t value = scaled + params->output_zero_point;
    value = value < -128 ? -128 : (value > 127 ? 127 : value);
    output[i] = (int8_t)value;
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_leaky_relu_f32(const opbridge_leaky_relu_f32_params *params, const float *input, float *output) {
  if (params == NULL || input == NULL || output == NULL || params->size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    const float x = input[i];
    output[i] = x > 0.0f ? x : x * params->alpha;
  }
  return OPBRIDGE_STATUS_OK;
}
