/*
 * int8 SOFTMAX with gemmlowp's fixed-point exp and reciprocal, as TFLite
 * Micro's reference kernel computes it (python/opbridge/quantization/gemmlowp.py
 * is the NumPy twin). A value with N integer bits is an int32 with 31 - N
 * fractional bits; the product of two such values is a saturating rounding
 * doubling high multiply.
 */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"

#define SCALED_DIFF_INTEGER_BITS 5
#define ACCUMULATION_INTEGER_BITS 12

static int32_t opbridge_softmax_multiply(int32_t a, int32_t b) {
  return opbridge_saturating_rounding_doubling_high_mul(a, b);
}

/* x * 2^exponent, saturating when exponent > 0, rounding when exponent < 0. */
static int32_t opbridge_softmax_multiply_by_power_of_two(int32_t x, int32_t exponent) {
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

static int32_t opbridge_softmax_rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = (int64_t)a + (int64_t)b;
  return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* exp(a) for a in [-1/4, 0), 0 integer bits: Taylor series around -1/8. */
static int32_t opbridge_softmax_exp_on_quarter_interval(int32_t a) {
  const int32_t constant_term = 1895147668;     /* exp(-1/8) */
  const int32_t constant_1_over_3 = 715827883;  /* 1/3 */
  const int32_t x = a + (1 << 28);              /* a + 1/8 */
  const int32_t x2 = opbridge_softmax_multiply(x, x);
  const int32_t x3 = opbridge_softmax_multiply(x2, x);
  const int32_t x4 = opbridge_softmax_multiply(x2, x2);
  const int32_t x4_over_4 = opbridge_softmax_multiply_by_power_of_two(x4, -2);
  const int32_t polynomial = opbridge_softmax_multiply_by_power_of_two(opbridge_softmax_multiply(x4_over_4 + x3, constant_1_over_3) + x2, -1);
  return constant_term + opbridge_softmax_multiply(constant_term, x + polynomial);
}

/* exp(a) for a <= 0 with 5 integer bits; the result has 0 integer bits. */
static int32_t opbridge_softmax_exp_on_negative_values(int32_t a) {
  /* exp(-2^k) in Q0.31 for k = -2 .. 4: a barrel shifter over the integer part. */
  static const int32_t exp_of_minus_power_of_two[7] = {1672461947, 1302514674, 790015084, 290630308,
                                                       39332535,   720401,     242};
  const int32_t fractional_bits = 31 - SCALED_DIFF_INTEGER_BITS;
  const int32_t one_quarter = 1 << (fractional_bits - 2);
  const int32_t a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter;
  int32_t result = opbridge_softmax_exp_on_quarter_interval(
      opbridge_softmax_multiply_by_power_of_two(a_mod_quarter_minus_one_quarter, SCALED_DIFF_INTEGER_BITS));
  const int32_t remainder = a_mod_quarter_minus_one_quarter - a;
  for (int32_t k = 0; k < 7; ++k) {
    const int32_t bit = fractional_bits + (k - 2);
    if (remainder & (1 << bit)) {
      result = opbridge_softmax_multiply(result, exp_of_minus_power_of_two[k]);
    }
  }
  return a == 0 ? INT32_MAX : result;
}

/* 1 / (1 + a) for a in [0, 1), 0 integer bits: three Newton-Raphson steps. */
static int32_t opbridge_softmax_one_over_one_plus_x(int32_t a) {
  const int32_t half_denominator = opbridge_softmax_rounding_half_sum(a, INT32_MAX);
  const int32_t constant_48_over_17 = 1515870810;    /* 2 integer bits */
  const int32_t constant_neg_32_over_17 = -1010580540;
  int32_t x = constant_48_over_17 + opbridge_softmax_multiply(half_denominator, constant_neg_32_over_17);
  for (int32_t i = 0; i < 3; ++i) {
    const int32_t one_minus_half_denominator_times_x = (1 << 29) - opbridge_softmax_multiply(half_denominator, x);
    x = x + opbridge_softmax_multiply_by_power_of_two(opbridge_softmax_multiply(x, one_minus_half_denominator_times_x), 2);
  }
  return opbridge_softmax_multiply_by_power_of_two(x, 1);
}

static int32_t opbridge_softmax_count_leading_zeros(uint32_t x) {
  int32_t zeros = 0;
  for (uint32_t bit = UINT32_C(1) << 31; bit != 0 && (x & bit) == 0; bit >>= 1) {
    ++zeros;
  }
  return zeros;
}

int32_t opbridge_softmax_s8(const opbridge_softmax_s8_params *params, const int8_t *input, int8_t *output) {
  if (params == NULL || input == NULL || output == NULL || params->rows <= 0 || params->depth <= 0 ||
      params->input_left_shift < 0 || params->input_left_shift > 31) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t row = 0; row < params->rows; ++row) {
    const int8_t *in = input + row * params->depth;
    int8_t *out = output + row * params->depth;
    int32_t maximum = -128;
    for (int32_t c = 0; c < params->depth; ++c) {
      if (in[c] > maximum) {
        maximum = in[c];
      }
    }
    int32_t sum_of_exps = 0; /* 12 integer bits */
    for (int32_t c = 0; c < params->depth; ++c) {
      const int32_t difference = (int32_t)in[c] - maximum;
      if (difference >= params->diff_min) {
        const int32_t scaled = opbridge_softmax_multiply((int32_t)((uint32_t)difference << params->input_left_shift),
                                        params->input_multiplier);
        sum_of_exps += opbridge_softmax_multiply_by_power_of_two(opbridge_softmax_exp_on_negative_values(scaled), -ACCUMULATION_INTEGER_BITS);
      }
    }
    const int32_t headroom_plus_one = opbridge_softmax_count_leading_zeros((uint32_t)sum_of_exps);
    const int32_t bits_over_unit = ACCUMULATION_INTEGER_BITS - headroom_plus_one;
    const int32_t shifted_sum_minus_one =
        (int32_t)(((uint32_t)sum_of_exps << headroom_plus_one) - (UINT32_C(1) << 31));
    const int32_t reciprocal = opbridge_softmax_one_over_one_plus_x(shifted_sum_minus_one);
    const int32_t exponent = bits_over_unit + 31 - 8;
    if (exponent < 0 || exponent > 31) {
      return OPBRIDGE_STATUS_UNSUPPORTED;
    }
    for (int32_t c = 0; c < params->depth; ++c) {
      const int32_t difference = (int32_t)in[c] - maximum;
      if (difference >= params->diff_min) {
        const int32_t scaled = opbridge_softmax_multiply((int32_t)((uint32_t)difference << params->input_left_shift),
                                        params->input_multiplier);
        const int32_t probability =
            opbridge_rounding_divide_by_power_of_two(opbridge_softmax_multiply(reciprocal, opbridge_softmax_exp_on_negative_values(scaled)), exponent);
        out[c] = opbridge_clamp_s8(probability - 128, -128, 127);
      } else {
        out[c] = -128;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
