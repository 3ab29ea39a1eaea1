/* SPDX-License-Identifier: Apache-2.0 */
/* float32 SUM: visits the input once in row-major order and adds each element
 * to its output, as TFLite Micro's ReduceGeneric does, so each output's sum is
 * rounded in the order python/opbridge/ops/sum's reference uses. */
#include "cc/kernels/opbridge_sum_f32.h"

#include <stddef.h>

/* Fills `strides` (each axis's step in the output, 0 for a reduced axis) and `input_size`;
 * 0 unless the shape is valid and its kept sizes multiply to output_size. */
static int32_t opbridge_sum_f32_layout(const opbridge_sum_f32_params *params, int32_t *strides,
                                       int32_t *input_size) {
  int64_t kept = 1;
  int64_t total = 1;
  for (int32_t axis = OPBRIDGE_SUM_F32_MAX_RANK - 1; axis >= 0; --axis) {
    const int32_t size = params->input_shape[axis];
    if (size <= 0) {
      return 0;
    }
    strides[axis] = params->reduce[axis] ? 0 : (int32_t)kept;
    if (!params->reduce[axis]) {
      kept *= size;
    }
    total *= size;
    if (total > INT32_MAX) {
      return 0;
    }
  }
  *input_size = (int32_t)total;
  return kept == params->output_size;
}

int32_t opbridge_sum_f32(const opbridge_sum_f32_params *params, const float *input, float *output) {
  int32_t strides[OPBRIDGE_SUM_F32_MAX_RANK];
  int32_t index[OPBRIDGE_SUM_F32_MAX_RANK] = {0};
  int32_t input_size = 0;
  if (params == NULL || input == NULL || output == NULL || !opbridge_sum_f32_layout(params, strides, &input_size)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t o = 0; o < params->output_size; ++o) {
    output[o] = 0.0f;
  }
  int32_t out = 0;
  for (int32_t in = 0; in < input_size; ++in) {
    output[out] += input[in];
    /* The next input index, odometer-style; `out` follows it through the strides. */
    for (int32_t axis = OPBRIDGE_SUM_F32_MAX_RANK - 1; axis >= 0; --axis) {
      if (++index[axis] < params->input_shape[axis]) {
        out += strides[axis];
        break;
      }
      out -= strides[axis] * (params->input_shape[axis] - 1);
      index[axis] = 0;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
