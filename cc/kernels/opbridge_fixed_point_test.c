/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks the fixed-point helpers (and gemmlowp's multiply, inline in
 * opbridge_gemmlowp.h) against exact 64-bit arithmetic written
 * independently (floor division and rounding of magnitudes instead of
 * nudges and masks), on edge values, products halfway between two results
 * and a fixed pseudo-random sample, on every platform.
 */
#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_gemmlowp.h"

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

static void expect_equal(const char *what, int32_t a, int32_t b, int32_t found, int32_t expected) {
  if (found != expected && failures++ < 10) {
    printf("FAIL %s(%ld, %ld) = %ld, expected %ld\n", what, (long)a, (long)b, (long)found,
           (long)expected);
  }
}

/* floor(a * b / 2^31 + 1/2): gemmlowp rounds ties of this one upwards. */
static int32_t exact_doubling_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) {
    return INT32_MAX;
  }
  const int64_t shifted = (int64_t)a * (int64_t)b + (INT64_C(1) << 30);
  const int64_t divisor = INT64_C(1) << 31;
  int64_t quotient = shifted / divisor; /* truncates toward zero ... */
  if (shifted % divisor != 0 && shifted < 0) {
    quotient -= 1; /* ... so step down to the floor for negatives */
  }
  return (int32_t)quotient;
}

static int32_t exact_divide_by_power_of_two(int32_t x, int32_t exponent) {
  const int64_t value = x;
  const uint64_t magnitude = value < 0 ? (uint64_t)(-value) : (uint64_t)value;
  const uint64_t half = exponent > 0 ? (UINT64_C(1) << (exponent - 1)) : 0;
  const int64_t quotient = (int64_t)((magnitude + half) >> exponent);
  return (int32_t)(value < 0 ? -quotient : quotient);
}

/* The inline rescale equals the two steps it fuses, for any x, multiplier in [0, 2^31) and
 * shift in [-31, 30]. */
static void expect_rescale_equal(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t left_shift = shift > 0 ? shift : 0;
  const int32_t shifted = (int32_t)((uint32_t)x << left_shift);
  const int32_t expected =
      exact_divide_by_power_of_two(exact_doubling_high_mul(shifted, multiplier), shift > 0 ? 0 : -shift);
  const int32_t found = opbridge_rescale(x, multiplier, shift);
  if (found != expected && failures++ < 10) {
    printf("FAIL rescale(%ld, %ld, %ld) = %ld, expected %ld\n", (long)x, (long)multiplier, (long)shift, (long)found,
           (long)expected);
  }
}

static uint32_t random_state = 0x9E3779B9u;

static uint32_t next_random(void) { /* xorshift32: the same sequence everywhere */
  random_state ^= random_state << 13;
  random_state ^= random_state >> 17;
  random_state ^= random_state << 5;
  return random_state;
}

int main(void) {
  const int32_t edges[] = {INT32_MIN, INT32_MIN + 1, -65537, -65536, -3, -2, -1, 0, 1, 2, 3,
                           65535,     65536,         1 << 30, INT32_MAX - 1, INT32_MAX};
  const int edge_count = (int)(sizeof(edges) / sizeof(edges[0]));

  /* Products exactly halfway between two results, of either sign: 2^15 x (2k + 1) 2^15 = (2k + 1) 2^30. */
  for (int32_t k = -40; k <= 40; ++k) {
    const int32_t a = INT32_C(1) << 15;
    const int32_t b = (2 * k + 1) * (INT32_C(1) << 15);
    expect_equal("doubling_high_mul", a, b, opbridge_saturating_rounding_doubling_high_mul(a, b),
                 exact_doubling_high_mul(a, b));
    expect_equal("gemmlowp_multiply", a, b, opbridge_gemmlowp_multiply(a, b), exact_doubling_high_mul(a, b));
  }
  for (int i = 0; i < edge_count; ++i) {
    for (int j = 0; j < edge_count; ++j) {
      expect_equal("doubling_high_mul", edges[i], edges[j],
                   opbridge_saturating_rounding_doubling_high_mul(edges[i], edges[j]),
                   exact_doubling_high_mul(edges[i], edges[j]));
      expect_equal("gemmlowp_multiply", edges[i], edges[j], opbridge_gemmlowp_multiply(edges[i], edges[j]),
                   exact_doubling_high_mul(edges[i], edges[j]));
    }
    for (int j = 0; j < edge_count; ++j) {
      for (int32_t shift = -31; shift <= 30 && edges[j] >= 0; ++shift) {
        expect_rescale_equal(edges[i], edges[j], shift);
      }
    }
    for (int32_t exponent = 0; exponent <= 31; ++exponent) {
      expect_equal("divide_by_power_of_two", edges[i], exponent,
                   opbridge_rounding_divide_by_power_of_two(edges[i], exponent),
                   exact_divide_by_power_of_two(edges[i], exponent));
    }
  }

  for (int sample = 0; sample < 200000; ++sample) {
    const int32_t a = (int32_t)next_random();
    const int32_t b = (int32_t)next_random();
    const int32_t exponent = (int32_t)(next_random() % 32u);
    expect_equal("doubling_high_mul", a, b, opbridge_saturating_rounding_doubling_high_mul(a, b),
                 exact_doubling_high_mul(a, b));
    expect_equal("gemmlowp_multiply", a, b, opbridge_gemmlowp_multiply(a, b), exact_doubling_high_mul(a, b));
    expect_equal("divide_by_power_of_two", a, exponent,
                 opbridge_rounding_divide_by_power_of_two(a, exponent),
                 exact_divide_by_power_of_two(a, exponent));

    /* Two roundings (each within 1/2) keep a rescale within 1 of the real product. */
    const int32_t multiplier = (int32_t)(0x40000000u | (next_random() & 0x3FFFFFFFu));
    const int32_t shift = -(int32_t)(next_random() % 20u);
    const int32_t x = (int32_t)(next_random() % 2000001u) - 1000000;
    const int32_t found = opbridge_multiply_by_quantized_multiplier(x, multiplier, shift);
    expect_rescale_equal(x, multiplier, shift);
    expect_rescale_equal(a, (int32_t)((uint32_t)b >> 1), (int32_t)(next_random() % 62u) - 31);
    const double real = (double)x * ((double)multiplier / 2147483648.0) / (double)(1L << -shift);
    const double error = (double)found - real;
    if ((error >= 1.0 || error <= -1.0) && failures++ < 10) {
      printf("FAIL multiply_by_quantized_multiplier(%ld, %ld, %ld) = %ld, real %f\n", (long)x,
             (long)multiplier, (long)shift, (long)found, real);
    }
  }

  if (failures != 0) {
    printf("%d failures\n", failures);
    return EXIT_FAILURE;
  }
  printf("fixed point: all checks passed\n");
  return EXIT_SUCCESS;
}
