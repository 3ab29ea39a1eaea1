/* SPDX-License-Identifier: Apache-2.0 */
/* GATHER: positions checked first, then one slice copied per (outer index, position). */
#include "cc/kernels/opbridge_gather.h"

#include <stddef.h>
#include <string.h>

static int32_t opbridge_gather_check_params(const opbridge_gather_params *params, const void *input,
                                            const void *positions, const void *output) {
  if (params == NULL || input == NULL || positions == NULL || output == NULL || params->element_size <= 0 ||
      params->outer_size < 0 || params->axis_size < 0 || params->inner_size < 0 || params->position_count < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return OPBRIDGE_STATUS_OK;
}

/* Copies the slice at `position` of outer index `outer` to `target`; returns the byte after it. */
static uint8_t *opbridge_gather_slice(const opbridge_gather_params *params, const uint8_t *source, int32_t outer,
                                      int32_t position, uint8_t *target) {
  const size_t slice_bytes = (size_t)params->inner_size * (size_t)params->element_size;
  const size_t row = (size_t)outer * (size_t)params->axis_size + (size_t)position;
  const uint8_t *slice = source + row * slice_bytes;
  /* Constant-size copies for the common single elements (gathers along the last axis). */
  if (slice_bytes == 4u) {
    memcpy(target, slice, 4u);
  } else if (slice_bytes == 1u) {
    *target = *slice;
  } else {
    memcpy(target, slice, slice_bytes);
  }
  return target + slice_bytes;
}

int32_t opbridge_gather_s32_positions(const opbridge_gather_params *params, const void *input,
                                      const int32_t *positions, void *output) {
  const int32_t status = opbridge_gather_check_params(params, input, positions, output);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  for (int32_t p = 0; p < params->position_count; ++p) {
    if (positions[p] < 0 || positions[p] >= params->axis_size) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  for (int32_t outer = 0; outer < params->outer_size; ++outer) {
    for (int32_t p = 0; p < params->position_count; ++p) {
      target = opbridge_gather_slice(params, source, outer, positions[p], target);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_gather_s64_positions(const opbridge_gather_params *params, const void *input,
                                      const int64_t *positions, void *output) {
  const int32_t status = opbridge_gather_check_params(params, input, positions, output);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  for (int32_t p = 0; p < params->position_count; ++p) {
    if (positions[p] < 0 || positions[p] >= (int64_t)params->axis_size) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  for (int32_t outer = 0; outer < params->outer_size; ++outer) {
    for (int32_t p = 0; p < params->position_count; ++p) {
      /* In [0, axis_size) after the check, so it fits an int32_t. */
      target = opbridge_gather_slice(params, source, outer, (int32_t)positions[p], target);
    }
  }
  return OPBRIDGE_STATUS_OK;
}
