/* SPDX-License-Identifier: Apache-2.0 */
/* LOCAL_RESPONSE_NORMALIZATION on float32 (see opbridge_local_response_normalization_f32.h). */
#include "cc/kernels/opbridge_local_response_normalization_f32.h"

#include <math.h>
#include <stddef.h>

int32_t opbridge_local_response_normalization_f32(const opbridge_local_response_normalization_f32_params *params,
                                                  const float *input, float *output) {
  if (params == NULL || input == NULL || output == NULL || params->rows < 0 || params->depth <= 0 ||
      params->radius_before < 0 || params->radius_after < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->depth;
  for (int32_t r = 0; r < params->rows; ++r) {
    const float *row = input + (ptrdiff_t)r * depth;
    float *out = output + (ptrdiff_t)r * depth;
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t first = c - params->radius_before < 0 ? 0 : c - params->radius_before;
      const int32_t last = params->radius_after > depth - 1 - c ? depth - 1 : c + params->radius_after;
      float sum = 0.0f;
      for (int32_t i = first; i <= last; ++i) {
        sum += row[i] * row[i];
      }
      const float scale = params->bias + params->alpha * sum;
      out[c] = row[c] * powf(scale, -params->beta);
    }
  }
  return OPBRIDGE_STATUS_OK;
}
