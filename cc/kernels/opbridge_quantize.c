/* SPDX-License-Identifier: Apache-2.0 */
/* QUANTIZE between integer types (int8, int16, int32, uint8; int8 -> int8 is in
 * opbridge_elementwise_s8.c): TFLite Micro's Requantize (see opbridge_quantize.h). */
#include "cc/kernels/opbridge_quantize.h"

#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"

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

/* opbridge_requantize_<in_name>_<out_name>: the argument check, then each element requantized and
 * narrowed to out_t (within its bounds already). The kernels differ only in their element types, so
 * they are written once here. Each reads element i before it writes element i, in order: in place is
 * safe for equal widths. */
#define OPBRIDGE_DEFINE_REQUANTIZE(in_name, in_t, out_name, out_t)                                          \
  int32_t opbridge_requantize_##in_name##_##out_name(const opbridge_requantize_s8_params *params,           \
                                                     const in_t *input, out_t *output) {                    \
    if (!valid(params, input, output)) {                                                                    \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                              \
    }                                                                                                       \
    for (int32_t i = 0; i < params->size; ++i) {                                                            \
      output[i] = (out_t)requantized(params, input[i]);                                                     \
    }                                                                                                       \
    return OPBRIDGE_STATUS_OK;                                                                              \
  }

OPBRIDGE_DEFINE_REQUANTIZE(s8, int8_t, s16, int16_t)
OPBRIDGE_DEFINE_REQUANTIZE(s16, int16_t, s8, int8_t)
OPBRIDGE_DEFINE_REQUANTIZE(s16, int16_t, s16, int16_t)
OPBRIDGE_DEFINE_REQUANTIZE(s8, int8_t, s32, int32_t)
OPBRIDGE_DEFINE_REQUANTIZE(s16, int16_t, s32, int32_t)
OPBRIDGE_DEFINE_REQUANTIZE(s32, int32_t, s8, int8_t)
OPBRIDGE_DEFINE_REQUANTIZE(s32, int32_t, s16, int16_t)
OPBRIDGE_DEFINE_REQUANTIZE(s8, int8_t, u8, uint8_t)
OPBRIDGE_DEFINE_REQUANTIZE(u8, uint8_t, s8, int8_t)

#undef OPBRIDGE_DEFINE_REQUANTIZE
