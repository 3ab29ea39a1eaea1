/* SPDX-License-Identifier: Apache-2.0 */
/* TRANSPOSE: a gather of elements of any size along a precomputed 6-D lattice. */
#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_kernels_f32.h"

#define OPBRIDGE_TRANSPOSE_OUTER (OPBRIDGE_TRANSPOSE_MAX_RANK - 1)
/* The longest innermost axis the block loop below takes: an image's channels (measured: 3 channels
 * of 32x32 go from 69,788 instructions to about 15,600 on the Cortex-M55; 5 columns under 25 rows
 * took longer in blocks than in rows). */
#define OPBRIDGE_TRANSPOSE_SHORT_ROW 4

/* Bytes whose innermost output axis is shorter than the one before it (NCHW -> NHWC of a few
 * channels): each block of the last two output axes is copied with the longer axis innermost, the
 * target advancing by whole rows, so the outer index work is done once per block, not once per
 * short row (about 22 instructions per byte on the Cortex-M55 for 3 channels, then about 5). */
static void opbridge_transpose_short_rows_u8(const int32_t *shape, const int32_t *strides, const uint8_t *source,
                                             uint8_t *target) {
  enum { BLOCK_AXES = OPBRIDGE_TRANSPOSE_OUTER - 1 };
  const int32_t count = shape[OPBRIDGE_TRANSPOSE_OUTER];
  const int32_t rows = shape[BLOCK_AXES];
  const size_t step = (size_t)strides[OPBRIDGE_TRANSPOSE_OUTER];
  const size_t row_step = (size_t)strides[BLOCK_AXES];
  int32_t blocks = 1;
  for (int32_t axis = 0; axis < BLOCK_AXES; ++axis) {
    blocks *= shape[axis];
  }
  int32_t index[BLOCK_AXES] = {0};
  for (int32_t block = 0; block < blocks; ++block, target += (size_t)rows * (size_t)count) {
    size_t start = 0;
    for (int32_t axis = 0; axis < BLOCK_AXES; ++axis) {
      start += (size_t)index[axis] * (size_t)strides[axis];
    }
    for (int32_t position = 0; position < count; ++position) {
      const uint8_t *element = source + start + (size_t)position * step;
      uint8_t *written = target + position;
      for (int32_t row = 0; row < rows; ++row, element += row_step, written += count) {
        *written = *element;
      }
    }
    for (int32_t axis = BLOCK_AXES - 1; axis >= 0; --axis) {
      if (++index[axis] < shape[axis]) {
        break;
      }
      index[axis] = 0;
    }
  }
}

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
  if (size == 1 && count <= OPBRIDGE_TRANSPOSE_SHORT_ROW && count < shape[OPBRIDGE_TRANSPOSE_OUTER - 1]) {
    opbridge_transpose_short_rows_u8(shape, strides, source, target);
    return OPBRIDGE_STATUS_OK;
  }
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
