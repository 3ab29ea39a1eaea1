/* SPDX-License-Identifier: Apache-2.0 */
/* TRANSPOSE: a gather of elements of any size along a precomputed 6-D lattice. */
#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_kernels_f32.h"

#define OPBRIDGE_TRANSPOSE_OUTER (OPBRIDGE_TRANSPOSE_MAX_RANK - 1)

int32_t opbridge_transpose(const opbridge_transpose_params *params, const void *input, void *output) {
  if (params == NULL || input == NULL || output == NULL || params->element_size <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *shape = params->output_shape;
  const int32_t *strides = params->input_strides;
  int32_t rows = 1;
  for (int32_t axis = 0; axis < OPBRIDGE_TRANSPOSE_MAX_RANK; ++axis) {
    if (shape[axis] < 0 || strides[axis] < 0) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
    if (axis < OPBRIDGE_TRANSPOSE_OUTER) {
      rows *= shape[axis];
    }
  }
  const size_t size = (size_t)params->element_size;
  const int32_t count = shape[OPBRIDGE_TRANSPOSE_OUTER];
  const size_t step = (size_t)strides[OPBRIDGE_TRANSPOSE_OUTER] * size;
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  int32_t index[OPBRIDGE_TRANSPOSE_OUTER] = {0};
  for (int32_t row = 0; row < rows; ++row) {
    size_t start = 0;
    for (int32_t axis = 0; axis < OPBRIDGE_TRANSPOSE_OUTER; ++axis) {
      start += (size_t)index[axis] * (size_t)strides[axis];
    }
    const uint8_t *element = source + start * size;
    /* The innermost axis, with constant-size copies for the common element sizes. */
    if (size == 4) {
      for (int32_t i = 0; i < count; ++i, element += step, target += 4) {
        memcpy(target, element, 4u);
      }
    } else if (size == 1) {
      for (int32_t i = 0; i < count; ++i, element += step) {
        *target++ = *element;
      }
    } else if (size == 2) {
      for (int32_t i = 0; i < count; ++i, element += step, target += 2) {
        memcpy(target, element, 2u);
      }
    } else if (size == 8) {
      for (int32_t i = 0; i < count; ++i, element += step, target += 8) {
        memcpy(target, element, 8u);
      }
    } else {
      for (int32_t i = 0; i < count; ++i, element += step, target += size) {
        memcpy(target, element, size);
      }
    }
    /* The next row: the outer index counts up like an odometer. */
    for (int32_t axis = OPBRIDGE_TRANSPOSE_OUTER - 1; axis >= 0; --axis) {
      if (++index[axis] < shape[axis]) {
        break;
      }
      index[axis] = 0;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
