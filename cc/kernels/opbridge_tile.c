/* SPDX-License-Identifier: Apache-2.0 */
/* TILE: the input placed in the output's first tile, then each axis replicated. */
#include "cc/kernels/opbridge_tile.h"

#include <stddef.h>
#include <string.h>

#define OPBRIDGE_TILE_RANK OPBRIDGE_TILE_MAX_RANK

/* The byte offset in the output of the outer index `index` (axes 0 .. count - 1). */
static size_t opbridge_tile_offset(const int32_t *index, const size_t *output_strides, int32_t count) {
  size_t offset = 0;
  for (int32_t axis = 0; axis < count; ++axis) {
    offset += (size_t)index[axis] * output_strides[axis];
  }
  return offset;
}

/* Advances `index` over the input's axes 0 .. count - 1 like an odometer. */
static void opbridge_tile_next(int32_t *index, const int32_t *shape, int32_t count) {
  for (int32_t axis = count - 1; axis >= 0; --axis) {
    if (++index[axis] < shape[axis]) {
      return;
    }
    index[axis] = 0;
  }
}

/* Fills [block, block + total) with copies of its first `filled` bytes, doubling the copied span. */
static void opbridge_tile_repeat(uint8_t *block, size_t filled, size_t total) {
  while (filled < total) {
    const size_t span = filled < total - filled ? filled : total - filled;
    memcpy(block + filled, block, span);
    filled += span;
  }
}

int32_t opbridge_tile(const opbridge_tile_params *params, const void *input, void *output) {
  if (params == NULL || input == NULL || output == NULL || params->element_size <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *shape = params->input_shape;
  const int32_t *multiples = params->multiples;
  for (int32_t axis = 0; axis < OPBRIDGE_TILE_RANK; ++axis) {
    if (shape[axis] < 0 || multiples[axis] < 0) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
    if (shape[axis] == 0 || multiples[axis] == 0) {
      return OPBRIDGE_STATUS_OK; /* an empty output: nothing to write */
    }
  }
  /* Bytes between neighbours along each output axis. Zeroed first only for GCC 12's -fanalyzer
   * (//cc/kernels:kernels_analyzed, at -O2): it does not follow the loop below, which sets every
   * axis, and reports output_strides[axis] as uninitialized in opbridge_tile_offset. */
  size_t output_strides[OPBRIDGE_TILE_RANK] = {0};
  size_t stride = (size_t)params->element_size;
  for (int32_t axis = OPBRIDGE_TILE_RANK - 1; axis >= 0; --axis) {
    output_strides[axis] = stride;
    stride *= (size_t)shape[axis] * (size_t)multiples[axis];
  }
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  int32_t index[OPBRIDGE_TILE_RANK] = {0};

  /* The input, row by row, into the first tile (the output indices below input_shape). */
  const int32_t inner = OPBRIDGE_TILE_RANK - 1;
  const size_t row_bytes = (size_t)shape[inner] * output_strides[inner];
  int32_t rows = 1;
  for (int32_t axis = 0; axis < inner; ++axis) {
    rows *= shape[axis];
  }
  for (int32_t row = 0; row < rows; ++row, source += row_bytes) {
    memcpy(target + opbridge_tile_offset(index, output_strides, inner), source, row_bytes);
    opbridge_tile_next(index, shape, inner);
  }

  /* Innermost axis first: within the first tile of the axes before it, the span of input_shape[axis]
   * complete sub-blocks is repeated multiples[axis] times along the axis. */
  for (int32_t axis = inner; axis >= 0; --axis) {
    if (multiples[axis] == 1) {
      continue;
    }
    const size_t span = (size_t)shape[axis] * output_strides[axis];
    int32_t blocks = 1;
    for (int32_t outer = 0; outer < axis; ++outer) {
      blocks *= shape[outer];
      index[outer] = 0;
    }
    for (int32_t block = 0; block < blocks; ++block) {
      opbridge_tile_repeat(target + opbridge_tile_offset(index, output_strides, axis), span,
                           span * (size_t)multiples[axis]);
      opbridge_tile_next(index, shape, axis);
    }
  }
  return OPBRIDGE_STATUS_OK;
}
