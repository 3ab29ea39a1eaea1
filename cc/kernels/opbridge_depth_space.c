/* SPDX-License-Identifier: Apache-2.0 */
/* DEPTH_TO_SPACE and SPACE_TO_DEPTH: the output written in order, one run of
 * channels (a block's depth) per copy. */
#include "cc/kernels/opbridge_depth_space.h"

#include <stddef.h>
#include <string.h>

static int32_t opbridge_depth_space_check(const opbridge_depth_space_params *params, const void *input,
                                          const void *output) {
  if (params == NULL || input == NULL || output == NULL || params->element_size < 1 || params->batch < 0 ||
      params->height < 0 || params->width < 0 || params->depth < 0 || params->block_size < 1) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_depth_to_space(const opbridge_depth_space_params *params, const void *input, void *output) {
  const int32_t status = opbridge_depth_space_check(params, input, output);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  const size_t block = (size_t)params->block_size;
  if ((size_t)params->depth % (block * block) != 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const size_t element = (size_t)params->element_size;
  const size_t width = (size_t)params->width;
  const size_t run = (size_t)params->depth / (block * block) * element; /* bytes of one output pixel */
  const size_t pixel = (size_t)params->depth * element;                 /* bytes of one input pixel */
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  const size_t rows = (size_t)params->batch * (size_t)params->height;
  for (size_t row = 0; row < rows; ++row) {
    const uint8_t *input_row = source + row * width * pixel;
    for (size_t y = 0; y < block; ++y) {
      for (size_t w = 0; w < width; ++w) {
        const uint8_t *from = input_row + w * pixel + y * block * run;
        memcpy(target, from, block * run); /* the x = 0 .. block - 1 runs are contiguous in the input */
        target += block * run;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_space_to_depth(const opbridge_depth_space_params *params, const void *input, void *output) {
  const int32_t status = opbridge_depth_space_check(params, input, output);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  const size_t block = (size_t)params->block_size;
  if ((size_t)params->height % block != 0 || (size_t)params->width % block != 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const size_t element = (size_t)params->element_size;
  const size_t width = (size_t)params->width;
  const size_t run = (size_t)params->depth * element; /* bytes of one input pixel */
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  const size_t output_rows = (size_t)params->batch * ((size_t)params->height / block);
  const size_t output_width = width / block;
  for (size_t row = 0; row < output_rows; ++row) {
    const uint8_t *input_rows = source + row * block * width * run;
    for (size_t w = 0; w < output_width; ++w) {
      for (size_t y = 0; y < block; ++y) {
        /* The x = 0 .. block - 1 pixels are contiguous in input row y. */
        memcpy(target, input_rows + (y * width + w * block) * run, block * run);
        target += block * run;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
