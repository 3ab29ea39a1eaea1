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

/* How the operands of a broadcast walk memory when the output is one run: 1 if input1 is contiguous
 * and input2 is contiguous too (*scalar = 0) or one value (*scalar = 1), with *count the output's
 * elements; 0 for any other broadcast (the general loop). */
static int32_t opbridge_flat_operands(const opbridge_broadcast_4d *broadcast, int32_t *count, int32_t *scalar) {
  const int32_t *shape = broadcast->output_shape;
  int32_t contiguous = 1;
  int32_t constant = 1;
  int32_t stride = 1;
  for (int32_t axis = 3; axis >= 0; --axis) {
    if (shape[axis] != 1) {
      contiguous = contiguous && broadcast->input1_strides[axis] == stride;
      contiguous = contiguous && (broadcast->input2_strides[axis] == stride || broadcast->input2_strides[axis] == 0);
      constant = constant && broadcast->input2_strides[axis] == 0;
      stride *= shape[axis];
    }
  }
  for (int32_t axis = 0; axis < 4 && contiguous && !constant; ++axis) {
    contiguous = shape[axis] == 1 || broadcast->input2_strides[axis] != 0;
  }
  *count = stride;
  *scalar = constant;
  return contiguous;
}

/* The flat case in C: one loop over the run, the second operand one value or a run too. */
#define OPBRIDGE_SCALAR_FLAT_S32(BROADCAST, EXPRESSION)                          \
  do {                                                                          \
    int32_t count, scalar;                                                      \
    if (opbridge_flat_operands((BROADCAST), &count, &scalar)) {                 \
      if (scalar) {                                                             \
        const int32_t b = input2[0];                                            \
        for (int32_t i = 0; i < count; ++i) {                                   \
          const int32_t a = input1[i];                                          \
          output[i] = (EXPRESSION);                                             \
        }                                                                       \
      } else {                                                                  \
        for (int32_t i = 0; i < count; ++i) {                                   \
          const int32_t a = input1[i];                                          \
          const int32_t b = input2[i];                                          \
          output[i] = (EXPRESSION);                                             \
        }                                                                       \
      }                                                                         \
      return OPBRIDGE_STATUS_OK;                                                \
    }                                                                           \
  } while (0)

#if OPBRIDGE_KERNELS_HELIUM
/* The Helium loops of the flat case: four int32 lanes a step, the last step predicated. VECTOR_OP wraps as
 * the scalar operation does (VADD/VMUL.I32 keep the low 32 bits). */
#define OPBRIDGE_HELIUM_FLAT_S32(VECTOR_OP, CLAMP)                                                   \
  do {                                                                                               \
    const int32x4_t low_ = vdupq_n_s32(low), high_ = vdupq_n_s32(high);                              \
    const int32x4_t scalar_ = vdupq_n_s32(input2[0]);                                                \
    (void)low_;                                                                                      \
    (void)high_;                                                                                     \
    int32_t i = 0;                                                                                   \
    for (; i + 4 <= count; i += 4) { /* whole vectors unpredicated: GCC spends ~5 on each VCTP */    \
      const int32x4_t b_ = scalar ? scalar_ : vld1q_s32(input2 + i);                                 \
      int32x4_t result_ = VECTOR_OP(vld1q_s32(input1 + i), b_);                                      \
      if (CLAMP) {                                                                                   \
        result_ = vminq_s32(vmaxq_s32(result_, low_), high_);                                        \
      }                                                                                              \
      vst1q_s32(output + i, result_);                                                                \
    }                                                                                                \
    if (i < count) {                                                                                 \
      const mve_pred16_t lanes_ = vctp32q((uint32_t)(count - i));                                    \
      const int32x4_t a_ = vldrwq_z_s32(input1 + i, lanes_);                                         \
      const int32x4_t b_ = scalar ? scalar_ : vldrwq_z_s32(input2 + i, lanes_);                      \
      int32x4_t result_ = VECTOR_OP(a_, b_);                                                         \
      if (CLAMP) {                                                                                   \
        result_ = vminq_s32(vmaxq_s32(result_, low_), high_);                                        \
      }                                                                                              \
      vstrwq_p_s32(output + i, result_, lanes_);                                                     \
    }                                                                                                \
  } while (0)
#define OPBRIDGE_HELIUM_ADD_S32 vaddq_s32
#define OPBRIDGE_HELIUM_MUL_S32 vmulq_s32
#define OPBRIDGE_HELIUM_MINIMUM_S32 vminq_s32
#define OPBRIDGE_HELIUM_MAXIMUM_S32 vmaxq_s32
#endif

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
    OPBRIDGE_FLAT_S32_##NAME(low, high);                                                             \
    OPBRIDGE_BROADCAST_LOOP(int32_t, &params->broadcast, input1, input2, output,                     \
                            opbridge_clamp_s32(OPERATION(a, b), low, high));                         \
    return OPBRIDGE_STATUS_OK;                                                                       \
  }

/* The flat case (opbridge_flat_operands): ADD and MUL by vector on Helium (the clamp only when an activation
 * is fused), in C elsewhere; DIV in C everywhere (no vector divide). */
#if OPBRIDGE_KERNELS_HELIUM
#define OPBRIDGE_FLAT_S32_VECTOR(BROADCAST, VECTOR_OP)                             \
  do {                                                                            \
    int32_t count, scalar;                                                        \
    if (opbridge_flat_operands((BROADCAST), &count, &scalar)) {                   \
      if (low == INT32_MIN && high == INT32_MAX) {                                \
        OPBRIDGE_HELIUM_FLAT_S32(VECTOR_OP, 0);                                   \
      } else {                                                                    \
        OPBRIDGE_HELIUM_FLAT_S32(VECTOR_OP, 1);                                   \
      }                                                                           \
      return OPBRIDGE_STATUS_OK;                                                  \
    }                                                                             \
  } while (0)
#define OPBRIDGE_FLAT_S32_add(low, high) OPBRIDGE_FLAT_S32_VECTOR(&params->broadcast, OPBRIDGE_HELIUM_ADD_S32)
#define OPBRIDGE_FLAT_S32_mul(low, high) OPBRIDGE_FLAT_S32_VECTOR(&params->broadcast, OPBRIDGE_HELIUM_MUL_S32)
#else
#define OPBRIDGE_FLAT_S32_add(low, high) \
  OPBRIDGE_SCALAR_FLAT_S32(&params->broadcast, opbridge_clamp_s32(opbridge_add_wrap_s32(a, b), low, high))
#define OPBRIDGE_FLAT_S32_mul(low, high) \
  OPBRIDGE_SCALAR_FLAT_S32(&params->broadcast, opbridge_clamp_s32(opbridge_mul_wrap_s32(a, b), low, high))
#endif
#define OPBRIDGE_FLAT_S32_div(low, high)                                                                 \
  do {                                                                                                   \
    int32_t count_, scalar_;                                                                             \
    if (opbridge_flat_operands(&params->broadcast, &count_, &scalar_) && scalar_ && input2[0] != 0 &&    \
        input2[0] != -1) {                                                                               \
      /* One divisor, neither 0 nor -1: a plain SDIV a value (the loop below checks both each time). */  \
      const int32_t divisor_ = input2[0];                                                                \
      if (low == INT32_MIN && high == INT32_MAX) { /* no activation: no clamp */                        \
        for (int32_t i = 0; i < count_; ++i) {                                                           \
          output[i] = input1[i] / divisor_;                                                              \
        }                                                                                                \
      } else {                                                                                           \
        for (int32_t i = 0; i < count_; ++i) {                                                           \
          output[i] = opbridge_clamp_s32(input1[i] / divisor_, low, high);                               \
        }                                                                                                \
      }                                                                                                  \
      return OPBRIDGE_STATUS_OK;                                                                         \
    }                                                                                                    \
    OPBRIDGE_SCALAR_FLAT_S32(&params->broadcast, opbridge_clamp_s32(opbridge_div_trunc_s32(a, b), low, high)); \
  } while (0)

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
    OPBRIDGE_FLAT_MIN_MAX_##NAME##_##SUFFIX(params);                                                        \
    OPBRIDGE_BROADCAST_LOOP(int32_t, params, input1, input2, output, (T)CHOOSE(a, b));                      \
    return OPBRIDGE_STATUS_OK;                                                                              \
  }

/* int32 MINIMUM and MAXIMUM: the flat case by vector on Helium, in C elsewhere. */
#if OPBRIDGE_KERNELS_HELIUM
#define OPBRIDGE_FLAT_MIN_MAX_S32(BROADCAST, VECTOR_OP)         \
  do {                                                         \
    const int32_t low = INT32_MIN, high = INT32_MAX; /* none */ \
    OPBRIDGE_FLAT_S32_VECTOR(BROADCAST, VECTOR_OP);             \
  } while (0)
#define OPBRIDGE_FLAT_MIN_MAX_minimum_s32(params) OPBRIDGE_FLAT_MIN_MAX_S32(params, OPBRIDGE_HELIUM_MINIMUM_S32)
#define OPBRIDGE_FLAT_MIN_MAX_maximum_s32(params) OPBRIDGE_FLAT_MIN_MAX_S32(params, OPBRIDGE_HELIUM_MAXIMUM_S32)
#else
#define OPBRIDGE_FLAT_MIN_MAX_minimum_s32(params) OPBRIDGE_SCALAR_FLAT_S32(params, OPBRIDGE_MIN(a, b))
#define OPBRIDGE_FLAT_MIN_MAX_maximum_s32(params) OPBRIDGE_SCALAR_FLAT_S32(params, OPBRIDGE_MAX(a, b))
#endif
#define OPBRIDGE_FLAT_MIN_MAX_minimum_s8(params) ((void)0)
#define OPBRIDGE_FLAT_MIN_MAX_minimum_s16(params) ((void)0)
#define OPBRIDGE_FLAT_MIN_MAX_maximum_s8(params) ((void)0)
#define OPBRIDGE_FLAT_MIN_MAX_maximum_s16(params) ((void)0)

OPBRIDGE_DEFINE_MIN_MAX(minimum, s8, int8_t, OPBRIDGE_MIN)
OPBRIDGE_DEFINE_MIN_MAX(minimum, s16, int16_t, OPBRIDGE_MIN)
OPBRIDGE_DEFINE_MIN_MAX(minimum, s32, int32_t, OPBRIDGE_MIN)
OPBRIDGE_DEFINE_MIN_MAX(maximum, s8, int8_t, OPBRIDGE_MAX)
OPBRIDGE_DEFINE_MIN_MAX(maximum, s16, int16_t, OPBRIDGE_MAX)
OPBRIDGE_DEFINE_MIN_MAX(maximum, s32, int32_t, OPBRIDGE_MAX)
