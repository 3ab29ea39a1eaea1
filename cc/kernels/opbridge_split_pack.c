/* SPDX-License-Identifier: Apache-2.0 */
/* SPLIT, SPLIT_V, UNPACK and PACK: for each outer index, one contiguous block
 * per part, in part order, copied to or from the whole tensor. */
#include "cc/kernels/opbridge_split_pack.h"

#include <stddef.h>
#include <string.h>

static int32_t opbridge_split_pack_check(const opbridge_split_pack_params *params, const void *whole,
                                         const void *parts) {
  if (params == NULL || whole == NULL || parts == NULL || params->part_sizes == NULL || params->element_size <= 0 ||
      params->outer_size < 0 || params->inner_size < 0 || params->part_count < 1) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->part_count; ++i) {
    if (params->part_sizes[i] < 0) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* Bytes of part `i` per outer index. */
static size_t opbridge_split_pack_block(const opbridge_split_pack_params *params, int32_t i) {
  return (size_t)params->part_sizes[i] * (size_t)params->inner_size * (size_t)params->element_size;
}

int32_t opbridge_split_pack_split(const opbridge_split_pack_params *params, const void *whole, void *const *parts) {
  const int32_t status = opbridge_split_pack_check(params, whole, parts);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  for (int32_t i = 0; i < params->part_count; ++i) {
    if (parts[i] == NULL && opbridge_split_pack_block(params, i) > 0u && params->outer_size > 0) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  const uint8_t *source = (const uint8_t *)whole;
  for (int32_t outer = 0; outer < params->outer_size; ++outer) {
    for (int32_t i = 0; i < params->part_count; ++i) {
      const size_t block = opbridge_split_pack_block(params, i);
      if (block > 0u) {
        memcpy((uint8_t *)parts[i] + (size_t)outer * block, source, block);
      }
      source += block;
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_split_pack_join(const opbridge_split_pack_params *params, const void *const *parts, void *whole) {
  const int32_t status = opbridge_split_pack_check(params, whole, parts);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  for (int32_t i = 0; i < params->part_count; ++i) {
    if (parts[i] == NULL && opbridge_split_pack_block(params, i) > 0u && params->outer_size > 0) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  uint8_t *target = (uint8_t *)whole;
  for (int32_t outer = 0; outer < params->outer_size; ++outer) {
    for (int32_t i = 0; i < params->part_count; ++i) {
      const size_t block = opbridge_split_pack_block(params, i);
      if (block > 0u) {
        memcpy(target, (const uint8_t *)parts[i] + (size_t)outer * block, block);
      }
      target += block;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
