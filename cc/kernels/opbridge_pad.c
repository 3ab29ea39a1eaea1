/* SPDX-License-Identifier: Apache-2.0 */
/* PAD / PADV2 on elements of any size (float32 models): constant padding, row by row. */
#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_kernels_f32.h"

#define OPBRIDGE_PAD_OUTER (OPBRIDGE_PAD_MAX_RANK - 1)

static uint8_t *opbridge_pad_fill(uint8_t *target, const void *pad_value, size_t size, int32_t count) {
  for (int32_t i = 0; i < count; ++i, target += size) {
    memcpy(target, pad_value, size);
  }
  return target;
}

int32_t opbridge_pad(const opbridge_pad_params *params, const void *input, const void *pad_value, void *output) {
  if (params == NULL || input == NULL || pad_value == NULL || output == NULL || params->element_size <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *in = params->input_shape;
  const int32_t *out = params->output_shape;
  const int32_t *before = params->padding_before;
  int32_t rows = 1;
  for (int32_t axis = 0; axis < OPBRIDGE_PAD_MAX_RANK; ++axis) {
    if (in[axis] < 0 || before[axis] < 0 || out[axis] < in[axis] + before[axis]) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
    if (axis < OPBRIDGE_PAD_OUTER) {
      rows *= out[axis];
    }
  }
  const size_t size = (size_t)params->element_size;
  const int32_t row_before = before[OPBRIDGE_PAD_OUTER];
  const int32_t row_inside = in[OPBRIDGE_PAD_OUTER];
  const int32_t row_after = out[OPBRIDGE_PAD_OUTER] - row_inside - row_before;
  const size_t row_bytes = (size_t)row_inside * size;
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  int32_t index[OPBRIDGE_PAD_OUTER] = {0};
  for (int32_t row = 0; row < rows; ++row) {
    int32_t inside = 1;
    for (int32_t axis = 0; axis < OPBRIDGE_PAD_OUTER; ++axis) {
      const int32_t position = index[axis] - before[axis];
      inside = inside && position >= 0 && position < in[axis];
    }
    if (inside) {
      /* Input rows appear in order, so the source pointer just moves on. */
      target = opbridge_pad_fill(target, pad_value, size, row_before);
      if (row_bytes > 0) {
        memcpy(target, source, row_bytes);
      }
      target += row_bytes;
      source += row_bytes;
      target = opbridge_pad_fill(target, pad_value, size, row_after);
    } else {
      target = opbridge_pad_fill(target, pad_value, size, out[OPBRIDGE_PAD_OUTER]);
    }
    for (int32_t axis = OPBRIDGE_PAD_OUTER - 1; axis >= 0; --axis) {
      if (++index[axis] < out[axis]) {
        break;
      }
      index[axis] = 0;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
