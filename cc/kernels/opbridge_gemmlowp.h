/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gemmlowp's fixed-point functions, as TFLite's int8 SOFTMAX, LOGISTIC and
 * TANH use them (internal to cc/kernels; python/opbridge/quantization/gemmlowp.py
 * is the NumPy twin). A value with N integer bits is an int32 with 31 - N
 * fractional bits; multiplying two is a saturating rounding doubling high
 * multiply, and the integer bits add.
 */
#ifndef OPBRIDGE_KERNELS_GEMMLOWP_H_
#define OPBRIDGE_KERNELS_GEMMLOWP_H_

#include <stdint.h>

/* The saturating rounding doubling high multiply, inline (an exp makes about ten): gemmlowp's
 * sign-dependent nudge then truncation toward zero equals floor((a * b + 2^30) / 2^31) for every
 * product, one 64-bit multiply-accumulate and a shift; only INT32_MIN x INT32_MIN saturates.
 * (opbridge_saturating_rounding_doubling_high_mul is the same, out of line.) */
static inline int32_t opbridge_gemmlowp_multiply(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) {
    return INT32_MAX;
  }
  /* >> of a negative integer is an arithmetic shift on every compiler we use. */
  return (int32_t)(((int64_t)a * (int64_t)b + (INT64_C(1) << 30)) >> 31);
}
/* x * 2^exponent: saturating for exponent > 0, rounding for exponent < 0. */
int32_t opbridge_gemmlowp_multiply_by_power_of_two(int32_t x, int32_t exponent);
/* exp(a) for a <= 0 with `integer_bits` (<= 5) integer bits; 0 integer bits out. */
int32_t opbridge_gemmlowp_exp_on_negative_values(int32_t a, int32_t integer_bits);
/* 1 / (1 + a) for a in [0, 1), 0 integer bits in and out. */
int32_t opbridge_gemmlowp_one_over_one_plus_x(int32_t a);
/* (1 - a) / (1 + a) for a in [0, 1), 0 integer bits in and out. */
int32_t opbridge_gemmlowp_one_minus_x_over_one_plus_x(int32_t a);
/* logistic(a) and tanh(a) for a with 4 integer bits; 0 integer bits out. */
int32_t opbridge_gemmlowp_logistic(int32_t a);
int32_t opbridge_gemmlowp_tanh(int32_t a);

#endif /* OPBRIDGE_KERNELS_GEMMLOWP_H_ */
