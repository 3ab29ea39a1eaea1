/* SPDX-License-Identifier: Apache-2.0 */
/* int8 LOGISTIC and TANH with gemmlowp's fixed-point functions, as TFLite
 * Micro's reference kernels compute them: inputs are rescaled to 4 integer
 * bits; inputs beyond the range radius saturate. */
#include <stddef.h>

#include "cc/kernels/opbridge_gemmlowp.h"
#include "cc/kernels/opbridge_kernels_internal.h"

static int32_t opbridge_activation_s8(const opbridge_activation_s8_params *params, const int8_t *input,
                                      int8_t *output, int32_t is_tanh) {
  if (params == NULL || input == NULL || output == NULL || params->size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    const int32_t centred = (int32_t)input[i] - params->input_zero_point;
    int32_t value;
    if (centred <= -params->input_range_radius) {
      value = -128;
    } else if (centred >= params->input_range_radius) {
      value = 127;
    } else {
      const int32_t scaled =
          opbridge_multiply_by_quantized_multiplier(centred, params->input_multiplier, params->input_left_shift);
      if (is_tanh) {
        value = opbridge_rounding_divide_by_power_of_two(opbridge_gemmlowp_tanh(scaled), 24);
      } else {
        value = opbridge_rounding_divide_by_power_of_two(opbridge_gemmlowp_logistic(scaled), 23) - 128;
      }
    }
    output[i] = opbridge_clamp_s8(value, -128, 127);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_logistic_s8(const opbridge_activation_s8_params *params, const int8_t *input, int8_t *output) {
  return opbridge_activation_s8(params, input, output, 0);
}

int32_t opbridge_tanh_s8(const opbridge_activation_s8_params *params, const int8_t *input, int8_t *output) {
  return opbridge_activation_s8(params, input, output, 1);
}
