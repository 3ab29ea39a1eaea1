/* SPDX-License-Identifier: Apache-2.0 */
/* ARG_MAX and ARG_MIN: one pass along the axis per (outer, inner) position. */
#include "cc/kernels/opbridge_arg_min_max.h"

#include <stddef.h>

static int32_t opbridge_arg_min_max_check(const opbridge_arg_min_max_params *params, const void *input,
                                          const void *output) {
  if (params == NULL || input == NULL || output == NULL || params->outer_size < 0 || params->axis_size < 1 ||
      params->inner_size < 0 || (params->output_is_int64 != 0 && params->output_is_int64 != 1)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return OPBRIDGE_STATUS_OK;
}

static void opbridge_arg_min_max_store(const opbridge_arg_min_max_params *params, void *output, size_t position,
                                       int32_t index) {
  if (params->output_is_int64) {
    ((int64_t *)output)[position] = (int64_t)index;
  } else {
    ((int32_t *)output)[position] = index;
  }
}

static int32_t opbridge_arg_min_max_f32(const opbridge_arg_min_max_params *params, const float *input, void *output,
                                        int is_max) {
  const int32_t status = opbridge_arg_min_max_check(params, input, output);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  const size_t axis_size = (size_t)params->axis_size;
  const size_t inner_size = (size_t)params->inner_size;
  for (size_t outer = 0; outer < (size_t)params->outer_size; ++outer) {
    const float *block = input + outer * axis_size * inner_size;
    for (size_t inner = 0; inner < inner_size; ++inner) {
      float best = block[inner];
      int32_t best_index = 0;
      for (size_t i = 1; i < axis_size; ++i) {
        const float candidate = block[i * inner_size + inner];
        if (is_max ? candidate > best : candidate < best) {
          best = candidate;
          best_index = (int32_t)i;
        }
      }
      opbridge_arg_min_max_store(params, output, outer * inner_size + inner, best_index);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

static int32_t opbridge_arg_min_max_s8(const opbridge_arg_min_max_params *params, const int8_t *input, void *output,
                                       int is_max) {
  const int32_t status = opbridge_arg_min_max_check(params, input, output);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  const size_t axis_size = (size_t)params->axis_size;
  const size_t inner_size = (size_t)params->inner_size;
  for (size_t outer = 0; outer < (size_t)params->outer_size; ++outer) {
    const int8_t *block = input + outer * axis_size * inner_size;
    for (size_t inner = 0; inner < inner_size; ++inner) {
      int8_t best = block[inner];
      int32_t best_index = 0;
      for (size_t i = 1; i < axis_size; ++i) {
        const int8_t candidate = block[i * inner_size + inner];
        if (is_max ? candidate > best : candidate < best) {
          best = candidate;
          best_index = (int32_t)i;
        }
      }
      opbridge_arg_min_max_store(params, output, outer * inner_size + inner, best_index);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_arg_max_f32(const opbridge_arg_min_max_params *params, const float *input, void *output) {
  return opbridge_arg_min_max_f32(params, input, output, 1);
}

int32_t opbridge_arg_min_f32(const opbridge_arg_min_max_params *params, const float *input, void *output) {
  return opbridge_arg_min_max_f32(params, input, output, 0);
}

int32_t opbridge_arg_max_s8(const opbridge_arg_min_max_params *params, const int8_t *input, void *output) {
  return opbridge_arg_min_max_s8(params, input, output, 1);
}

int32_t opbridge_arg_min_s8(const opbridge_arg_min_max_params *params, const int8_t *input, void *output) {
  return opbridge_arg_min_max_s8(params, input, output, 0);
}
