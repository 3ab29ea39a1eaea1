/* SPDX-License-Identifier: Apache-2.0 */
/* STRIDED_SLICE: a gather of elements along a precomputed 4-D lattice. */
#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_kernels_int.h"
#include "cc/kernels/opbridge_kernels_internal.h"

int32_t opbridge_strided_slice(const opbridge_strided_slice_params *params, const void *input, void *output) {
  if (params == NULL || input == NULL || output == NULL || params->element_size <= 0 || params->input_start < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *shape = params->output_shape;
  const int32_t *steps = params->input_steps;
  for (int32_t axis = 0; axis < 4; ++axis) {
    if (shape[axis] < 0) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  const int32_t size = params->element_size;
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  if (shape[0] == 1 && shape[1] == 1 && shape[2] == 1 && steps[3] == 1) {
    /* One contiguous run (a slice of a vector, e.g. the audio front end's spectrum): one copy. */
    opbridge_copy_bytes(target, source + (size_t)params->input_start * (size_t)size, (size_t)shape[3] * (size_t)size);
    return OPBRIDGE_STATUS_OK;
  }
  for (int32_t i0 = 0; i0 < shape[0]; ++i0) {
    const int32_t index0 = params->input_start + i0 * steps[0];
    for (int32_t i1 = 0; i1 < shape[1]; ++i1) {
      const int32_t index1 = index0 + i1 * steps[1];
      for (int32_t i2 = 0; i2 < shape[2]; ++i2) {
        int32_t index = index1 + i2 * steps[2];
        /* The innermost axis: one copy when its elements are contiguous, else specialised for
         * the common element sizes. */
        if (steps[3] == 1) {
          opbridge_copy_bytes(target, source + (size_t)index * (size_t)size, (size_t)shape[3] * (size_t)size);
          target += (size_t)shape[3] * (size_t)size;
        } else if (size == 4) {
          for (int32_t i3 = 0; i3 < shape[3]; ++i3, index += steps[3], target += 4) {
            memcpy(target, source + (size_t)index * 4u, 4u);
          }
        } else if (size == 2) {
          for (int32_t i3 = 0; i3 < shape[3]; ++i3, index += steps[3], target += 2) {
            memcpy(target, source + (size_t)index * 2u, 2u);
          }
        } else if (size == 1) {
          for (int32_t i3 = 0; i3 < shape[3]; ++i3, index += steps[3]) {
            *target++ = source[index];
          }
        } else {
          for (int32_t i3 = 0; i3 < shape[3]; ++i3, index += steps[3], target += size) {
            memcpy(target, source + (size_t)index * (size_t)size, (size_t)size);
          }
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
