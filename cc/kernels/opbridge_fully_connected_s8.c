/* SPDX-License-Identifier: Apache-2.0 */
#include "cc/kernels/opbridge_kernels_internal.h"

#include <stddef.h>


int32_t opbridge_fully_connected_s8(const opbridge_fully_connected_s8_params *params, const int8_t *input,
                                    const int8_t *filter, const int32_t *bias, int8_t *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (params->batches <= 0 || params->input_depth <= 0 || params->output_depth <= 0 ||
      !opbridge_requantization_valid(&params->requantization, params->output_depth)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    const int8_t *row = input + batch * params->input_depth;
    for (int32_t unit = 0; unit < params->output_depth; ++unit) {
      const int8_t *weights = filter + unit * params->input_depth;
      int32_t acc = 0;
      for (int32_t d = 0; d < params->input_depth; ++d) {
        acc += ((int32_t)row[d] + params->input_offset) * ((int32_t)weights[d] + params->filter_offset);
      }
      if (bias != NULL) {
        acc += bias[unit];
      }
      output[batch * params->output_depth + unit] =
          opbridge_requantize_channel_s8(acc, &params->requantization, unit, params->output_offset,
                                 params->activation_min, params->activation_max);
    }
  }
  return OPBRIDGE_STATUS_OK;
}
