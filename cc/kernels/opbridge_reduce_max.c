/* SPDX-License-Identifier: Apache-2.0 */
/* REDUCE_MAX: visits the input once in row-major order and keeps an element
 * in its output only when it compares greater, as TFLite Micro's
 * ReduceGeneric with its max reducer does, so NaN, -inf, signed zeros and
 * ties come out as python/opbridge/ops/reduce_max's reference has them. */
#include "cc/kernels/opbridge_reduce_max.h"

#include <float.h>
#include <stddef.h>

/* Fills `strides` (each axis's step in the output, 0 for a reduced axis) and `input_size`;
 * 0 unless the shape is valid and its kept sizes multiply to output_size. */
static int32_t opbridge_reduce_max_layout(const opbridge_reduce_max_params *params, int32_t *strides,
                                          int32_t *input_size) {
  int64_t kept = 1;
  int64_t total = 1;
  for (int32_t axis = OPBRIDGE_REDUCE_MAX_MAX_RANK - 1; axis >= 0; --axis) {
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

/* Steps `index` to the next input element, odometer-style, and `*out` to its output. */
static void opbridge_reduce_max_next(const opbridge_reduce_max_params *params, const int32_t *strides, int32_t *index,
                                     int32_t *out) {
  for (int32_t axis = OPBRIDGE_REDUCE_MAX_MAX_RANK - 1; axis >= 0; --axis) {
    if (++index[axis] < params->input_shape[axis]) {
      *out += strides[axis];
      return;
    }
    *out -= strides[axis] * (params->input_shape[axis] - 1);
    index[axis] = 0;
  }
}

int32_t opbridge_reduce_max_f32(const opbridge_reduce_max_params *params, const float *input, float *output) {
  int32_t strides[OPBRIDGE_REDUCE_MAX_MAX_RANK];
  int32_t index[OPBRIDGE_REDUCE_MAX_MAX_RANK] = {0};
  int32_t input_size = 0;
  if (params == NULL || input == NULL || output == NULL ||
      !opbridge_reduce_max_layout(params, strides, &input_size)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t o = 0; o < params->output_size; ++o) {
    output[o] = -FLT_MAX;
  }
  int32_t out = 0;
  for (int32_t in = 0; in < input_size; ++in) {
    const float value = input[in];
    const float current = output[out];
    output[out] = (value > current) ? value : current;
    opbridge_reduce_max_next(params, strides, index, &out);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_reduce_max_s8(const opbridge_reduce_max_params *params, const int8_t *input, int8_t *output) {
  int32_t strides[OPBRIDGE_REDUCE_MAX_MAX_RANK];
  int32_t index[OPBRIDGE_REDUCE_MAX_MAX_RANK] = {0};
  int32_t input_size = 0;
  if (params == NULL || input == NULL || output == NULL ||
      !opbridge_reduce_max_layout(params, strides, &input_size)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t o = 0; o < params->output_size; ++o) {
    output[o] = INT8_MIN;
  }
  int32_t out = 0;
  for (int32_t in = 0; in < input_size; ++in) {
    const int8_t value = input[in];
    const int8_t current = output[out];
    output[out] = (value > current) ? value : current;
    opbridge_reduce_max_next(params, strides, index, &out);
  }
  return OPBRIDGE_STATUS_OK;
}
