/* SPDX-License-Identifier: Apache-2.0 */
/* QUANTIZE between integer types (int8, int16, int32, uint8; int8 -> int8 is in
 * opbridge_elementwise_s8.c): TFLite Micro's Requantize (see opbridge_quantize.h). */
#include "cc/kernels/opbridge_quantize.h"

#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"
#include "cc/kernels/opbridge_kernels_s16.h"

/* a + b wrapped to int32 (TFLite adds in int32; unsigned arithmetic keeps the wrap defined). */
static int32_t wrapping_add(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}

/* One requantized value, within [activation_min, activation_max]. */
static int32_t requantized(const opbridge_requantize_s8_params *params, int32_t value) {
  const int32_t scaled = opbridge_multiply_by_quantized_multiplier(wrapping_add(value, params->input_offset),
                                                                   params->multiplier, params->shift);
  const int32_t shifted = wrapping_add(scaled, params->output_offset);
  return shifted < params->activation_min ? params->activation_min
                                          : (shifted > params->activation_max ? params->activation_max : shifted);
}

static int32_t valid(const opbridge_requantize_s8_params *params, const void *input, const void *output) {
  return params != NULL && input != NULL && output != NULL && params->size >= 0 && params->shift <= 31 &&
         params->activation_min <= params->activation_max;
}

/* Each kernel reads element i before it writes element i, in order: in place is safe for equal widths. */

int32_t opbridge_requantize_s8_s16(const opbridge_requantize_s8_params *params, const int8_t *input,
                                   int16_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int16_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s16_s8(const opbridge_requantize_s8_params *params, const int16_t *input,
                                   int8_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int8_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s16_s16(const opbridge_requantize_s8_params *params, const int16_t *input,
                                    int16_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int16_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s8_s32(const opbridge_requantize_s8_params *params, const int8_t *input, int32_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int32_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s16_s32(const opbridge_requantize_s8_params *params, const int16_t *input,
                                    int32_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int32_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s32_s8(const opbridge_requantize_s8_params *params, const int32_t *input, int8_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int8_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s32_s16(const opbridge_requantize_s8_params *params, const int32_t *input,
                                    int16_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int16_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s8_u8(const opbridge_requantize_s8_params *params, const int8_t *input, uint8_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (uint8_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_u8_s8(const opbridge_requantize_s8_params *params, const uint8_t *input, int8_t *output) {
  if (!valid(params, input, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    output[i] = (int8_t)requantized(params, input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}
