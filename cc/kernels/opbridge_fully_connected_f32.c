/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED on float32: TFLite Micro's float reference kernel, accumulating
 * in the order python/opbridge/ops/fully_connected/reference.py does. */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_f32.h"

int32_t opbridge_fully_connected_f32(const opbridge_fully_connected_f32_params *params, const float *input,
                                     const float *filter, const float *bias, float *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (params->batches <= 0 || params->input_depth <= 0 || params->output_depth <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const float low = params->activation_min;
  const float high = params->activation_max;
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    const float *row = input + batch * params->input_depth;
    float *result = output + batch * params->output_depth;
    for (int32_t unit = 0; unit < params->output_depth; ++unit) {
      const float *weights = filter + unit * params->input_depth;
      float total = 0.0f;
      for (int32_t d = 0; d < params->input_depth; ++d) {
        total += row[d] * weights[d];
      }
      if (bias != NULL) {
        total += bias[unit];
      }
      /* min(max(total, low), high), as TFLite's ActivationFunctionWithMinMax. */
      const float raised = total < low ? low : total;
      result[unit] = high < raised ? high : raised;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
