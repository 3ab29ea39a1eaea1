/* float32 MEAN over up to 4-D inputs (TFLite Micro's float reference: sum
 * in row-major input order, then one division by the element count), so
 * python/opbridge/ops/mean's float32 reference rounds the same way. */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_f32.h"

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
  const int32_t *shape = params->input_shape;
  const int32_t *reduce = params->reduce;
  for (int32_t o = 0; o < params->output_size; ++o) {
    output[o] = 0.0f;
  }
  int32_t in_index = 0;
  for (int32_t i0 = 0; i0 < shape[0]; ++i0) {
    for (int32_t i1 = 0; i1 < shape[1]; ++i1) {
      for (int32_t i2 = 0; i2 < shape[2]; ++i2) {
        for (int32_t i3 = 0; i3 < shape[3]; ++i3) {
          /* Row-major index over the dimensions that are kept. */
          int32_t o = 0;
          o = reduce[0] ? o : o * shape[0] + i0;
          o = reduce[1] ? o : o * shape[1] + i1;
          o = reduce[2] ? o : o * shape[2] + i2;
          o = reduce[3] ? o : o * shape[3] + i3;
          output[o] += input[in_index++];
        }
      }
    }
  }
  const float count = (float)params->count;
  for (int32_t o = 0; o < params->output_size; ++o) {
    output[o] = output[o] / count;
  }
  return OPBRIDGE_STATUS_OK;
}
