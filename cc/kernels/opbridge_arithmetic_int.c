/* SPDX-License-Identifier: Apache-2.0 */
/* Element-wise binary operators on plain integers with 4-D broadcasting:
 * int32 ADD, MUL and DIV (wrapping, then the fused activation's clamp), and
 * MINIMUM and MAXIMUM on int8, int16 and int32. */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_int.h"
#include "cc/kernels/opbridge_kernels_internal.h"

/* uint32 bits as the int32 of the same two's-complement representation. */
static inline int32_t opbridge_bits_to_s32(uint32_t value) {
  return value <= (uint32_t)INT32_MAX ? (int32_t)value : (int32_t)(value - 0x80000000u) + INT32_MIN;
}

static inline int32_t opbridge_clamp_s32(int32_t value, int32_t minimum, int32_t maximum) {
  return value < minimum ? minimum : (value > maximum ? maximum : value);
}

static inline int32_t opbridge_add_wrap_s32(int32_t a, int32_t b) {
  return opbridge_bits_to_s32((uint32_t)a + (uint32_t)b);
}

static inline int32_t opbridge_mul_wrap_s32(int32_t a, int32_t b) {
  return opbridge_bits_to_s32((uint32_t)a * (uint32_t)b);
}

static inline int32_t opbridge_div_trunc_s32(int32_t a, int32_t b) {
  if (b == 0) {
    return 0;
  }
  if (b == -1) {
    return opbridge_bits_to_s32(0u - (uint32_t)a); /* INT32_MIN / -1 wraps to INT32_MIN */
  }
  return a / b; /* C99 truncates toward zero */
}

#define OPBRIDGE_DEFINE_ARITHMETIC_S32(NAME, OPERATION)                                              \
  int32_t opbridge_##NAME##_s32(const opbridge_arithmetic_s32_params *params, const int32_t *input1, \
                                const int32_t *input2, int32_t *output) {                            \
    if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||                      \
        !opbridge_shape_4d_valid(params->broadcast.output_shape) ||                                  \
        params->activation_min > params->activation_max) {                                           \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                       \
    }                                                                                                \
    const int32_t low = params->activation_min;                                                      \
    const int32_t high = params->activation_max;                                                     \
    OPBRIDGE_BROADCAST_LOOP(int32_t, &params->broadcast, input1, input2, output,                     \
                            opbridge_clamp_s32(OPERATION(a, b), low, high));                         \
    return OPBRIDGE_STATUS_OK;                                                                       \
  }

OPBRIDGE_DEFINE_ARITHMETIC_S32(add, opbridge_add_wrap_s32)
OPBRIDGE_DEFINE_ARITHMETIC_S32(mul, opbridge_mul_wrap_s32)
OPBRIDGE_DEFINE_ARITHMETIC_S32(div, opbridge_div_trunc_s32)

#define OPBRIDGE_MIN(a, b) ((a) < (b) ? (a) : (b))
#define OPBRIDGE_MAX(a, b) ((a) > (b) ? (a) : (b))

/* The result is one of the inputs, so it converts back to T exactly. */
#define OPBRIDGE_DEFINE_MIN_MAX(NAME, SUFFIX, T, CHOOSE)                                                    \
  int32_t opbridge_##NAME##_##SUFFIX(const opbridge_broadcast_4d *params, const T *input1, const T *input2, \
                                     T *output) {                                                           \
    if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||                             \
        !opbridge_shape_4d_valid(params->output_shape)) {                                                   \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                              \
    }                                                                                                       \
    OPBRIDGE_BROADCAST_LOOP(int32_t, params, input1, input2, output, (T)CHOOSE(a, b));                      \
    return OPBRIDGE_STATUS_OK;                                                                              \
  }

OPBRIDGE_DEFINE_MIN_MAX(minimum, s8, int8_t, OPBRIDGE_MIN)
OPBRIDGE_DEFINE_MIN_MAX(minimum, s16, int16_t, OPBRIDGE_MIN)
OPBRIDGE_DEFINE_MIN_MAX(minimum, s32, int32_t, OPBRIDGE_MIN)
OPBRIDGE_DEFINE_MIN_MAX(maximum, s8, int8_t, OPBRIDGE_MAX)
OPBRIDGE_DEFINE_MIN_MAX(maximum, s16, int16_t, OPBRIDGE_MAX)
OPBRIDGE_DEFINE_MIN_MAX(maximum, s32, int32_t, OPBRIDGE_MAX)
