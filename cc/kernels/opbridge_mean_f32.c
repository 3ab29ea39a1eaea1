/* SPDX-License-Identifier: Apache-2.0 */
/* float32 MEAN over up to 4-D inputs (TFLite Micro's float reference: sum
 * in row-major input order, then one division by the element count), so
 * python/opbridge/ops/mean's float32 reference rounds the same way. */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_f32.h"
#include "cc/kernels/opbridge_kernels_internal.h"

static int32_t opbridge_mean_f32_valid(const opbridge_mean_f32_params *params) {
  int64_t kept = 1;
  int64_t reduced = 1;
  for (int32_t axis = 0; axis < 4; ++axis) {
    if (params->input_shape[axis] <= 0) {
      return 0;
    }
    if (params->reduce[axis]) {
      reduced *= params->input_shape[axis];
    } else {
      kept *= params->input_shape[axis];
    }
  }
  return kept == params->output_size && reduced == params->count;
}

int32_t opbridge_mean_f32(const opbridge_mean_f32_params *params, const float *input, float *output) {
  if (params == NULL || input == NULL || output == NULL || !opbridge_mean_f32_valid(params)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t o = 0; o < params->output_size; ++o) {
    output[o] = 0.0f;
  }
  OPBRIDGE_REDUCE_SUM_4D(params->input_shape, params->reduce, input, output);
  const float count = (float)params->count;
  for (int32_t o = 0; o < params->output_size; ++o) {
    output[o] = output[o] / count;
  }
  return OPBRIDGE_STATUS_OK;
}
