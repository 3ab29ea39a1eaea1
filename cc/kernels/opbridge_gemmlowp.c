/* SPDX-License-Identifier: Apache-2.0 */
#include "cc/kernels/opbridge_gemmlowp.h"

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernel_variant.h"

/* The exp and the reciprocal are compiled for size (OPBRIDGE_OPTIMIZE_FOR_SIZE), as the SOFTMAX,
 * LOGISTIC and TANH kernels that call them: a small share of any model's time, and the inline
 * multiply expanded at -O2 would add about 250 bytes to every module that links them. */

int32_t opbridge_gemmlowp_multiply_by_power_of_two(int32_t x, int32_t exponent) {
  if (exponent < 0) {
    return opbridge_rounding_divide_by_power_of_two(x, -exponent);
  }
  const int32_t threshold = (int32_t)((UINT32_C(1) << (31 - exponent)) - 1u);
  if (x > threshold) {
    return INT32_MAX;
  }
  if (x < -threshold) {
    return INT32_MIN;
  }
  return (int32_t)((uint32_t)x << exponent);
}

static int32_t opbridge_gemmlowp_rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* exp(a) for a in [-1/4, 0), 0 integer bits: Taylor series around -1/8. */
OPBRIDGE_OPTIMIZE_FOR_SIZE static int32_t opbridge_gemmlowp_exp_on_quarter_interval(int32_t a) {
  const int32_t constant_term = 1895147668;    /* exp(-1/8) */
  const int32_t constant_1_over_3 = 715827883; /* 1/3 */
  const int32_t x = a + (1 << 28);             /* a + 1/8 */
  const int32_t x2 = opbridge_gemmlowp_multiply(x, x);
  const int32_t x3 = opbridge_gemmlowp_multiply(x2, x);
  const int32_t x4 = opbridge_gemmlowp_multiply(x2, x2);
  const int32_t x4_over_4 = opbridge_gemmlowp_multiply_by_power_of_two(x4, -2);
  const int32_t sum = opbridge_gemmlowp_multiply(x4_over_4 + x3, constant_1_over_3) + x2;
  const int32_t polynomial = opbridge_gemmlowp_multiply_by_power_of_two(sum, -1);
  return constant_term + opbridge_gemmlowp_multiply(constant_term, x + polynomial);
}

OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_gemmlowp_exp_on_negative_values(int32_t a, int32_t integer_bits) {
  /* exp(-2^k) in Q0.31 for k = -2 .. 4: a barrel shifter over the integer part. */
  static const int32_t exp_of_minus_power_of_two[7] = {1672461947, 1302514674, 790015084, 290630308,
                                                       39332535,   720401,     242};
  const int32_t fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = 1 << (fractional_bits - 2);
  const int32_t a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter;
  int32_t result = opbridge_gemmlowp_exp_on_quarter_interval(
      opbridge_gemmlowp_multiply_by_power_of_two(a_mod_quarter_minus_one_quarter, integer_bits));
  const int32_t remainder = a_mod_quarter_minus_one_quarter - a;
  for (int32_t k = 0; k < 7; ++k) {
    const int32_t exponent = k - 2;
    if (integer_bits > exponent && (remainder & (1 << (fractional_bits + exponent)))) {
      result = opbridge_gemmlowp_multiply(result, exp_of_minus_power_of_two[k]);
    }
  }
  return a == 0 ? INT32_MAX : result;
}

/* Three Newton-Raphson steps for 1 / (2 * half_denominator); 2 integer bits out. */
OPBRIDGE_OPTIMIZE_FOR_SIZE static int32_t opbridge_gemmlowp_newton_reciprocal(int32_t half_denominator) {
  const int32_t constant_48_over_17 = 1515870810; /* 2 integer bits */
  const int32_t constant_neg_32_over_17 = -1010580540;
  int32_t x = constant_48_over_17 + opbridge_gemmlowp_multiply(half_denominator, constant_neg_32_over_17);
  for (int32_t i = 0; i < 3; ++i) {
    const int32_t one_minus_half_denominator_times_x = (1 << 29) - opbridge_gemmlowp_multiply(half_denominator, x);
    x = x + opbridge_gemmlowp_multiply_by_power_of_two(opbridge_gemmlowp_multiply(x, one_minus_half_denominator_times_x),
                                                       2);
  }
  return x;
}

OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_gemmlowp_one_over_one_plus_x(int32_t a) {
  const int32_t x = opbridge_gemmlowp_newton_reciprocal(opbridge_gemmlowp_rounding_half_sum(a, INT32_MAX));
  return opbridge_gemmlowp_multiply_by_power_of_two(x, 1);
}

OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_gemmlowp_one_minus_x_over_one_plus_x(int32_t a) {
  const int32_t x = opbridge_gemmlowp_newton_reciprocal(opbridge_gemmlowp_rounding_half_sum(a, INT32_MAX));
  return opbridge_gemmlowp_multiply_by_power_of_two(x - (1 << 29), 2);
}

int32_t opbridge_gemmlowp_logistic(int32_t a) {
  if (a == 0) {
    return 1 << 30; /* one half */
  }
  const int32_t magnitude = a > 0 ? a : -a;
  const int32_t positive =
      opbridge_gemmlowp_one_over_one_plus_x(opbridge_gemmlowp_exp_on_negative_values(-magnitude, 4));
  return a > 0 ? positive : INT32_MAX - positive;
}

int32_t opbridge_gemmlowp_tanh(int32_t a) {
  if (a == 0) {
    return 0;
  }
  const int32_t negative_magnitude = a < 0 ? a : -a;
  /* exp(2 * negative_magnitude): the same raw value read with 5 integer bits. */
  const int32_t magnitude_result = opbridge_gemmlowp_one_minus_x_over_one_plus_x(
      opbridge_gemmlowp_exp_on_negative_values(negative_magnitude, 5));
  return a < 0 ? -magnitude_result : magnitude_result;
}
