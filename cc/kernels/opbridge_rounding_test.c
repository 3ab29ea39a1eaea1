/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ONNX's rounding (to nearest, halves to even) in the int8 kernels: opbridge_round_half_to_even, which
 * the Helium variant computes with VCVTN and the others write out, and QuantizeLinear's kernel
 * (opbridge_quantize_f32_s8 with half_to_even) on exact halves, quarters and the values next to
 * them, against integer arithmetic, on every platform. The golden tests' drawn inputs almost never
 * land on a half, so the ties are checked here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cc/kernels/opbridge_kernels_internal.h"
#include "cc/kernels/opbridge_kernels_s8.h"

static int failures = 0;

static void check(const char *what, float value, int32_t actual, int32_t expected) {
  if (actual != expected) {
    printf("FAIL %s(%.9g): %ld, expected %ld\n", what, (double)value, (long)actual, (long)expected);
    ++failures;
  }
}

/* floor(numerator / denominator) for a positive denominator. */
static int32_t floor_divide(int32_t numerator, int32_t denominator) {
  const int32_t quotient = numerator / denominator;
  return (numerator % denominator != 0 && numerator < 0) ? quotient - 1 : quotient;
}

/* The nearest integer to n / 4, halves (n / 4 = k + 1/2) to the even one. */
static int32_t nearest_quarter(int32_t n) {
  if (n % 4 == 2 || n % 4 == -2) {
    const int32_t below = floor_divide(n, 4);
    return below % 2 == 0 ? below : below + 1;
  }
  return floor_divide(n + 2, 4);
}

int main(void) {
  /* Every quarter in [-300, 300]: integers, ties (k + 1/2) and the quarters between. */
  for (int32_t n = -1200; n <= 1200; ++n) {
    const float value = (float)n / 4.0f;
    check("opbridge_round_half_to_even", value, opbridge_round_half_to_even(value), nearest_quarter(n));
  }
  /* Just beside a tie: 2.5 - ulp rounds down, 2.5 + ulp up, whatever the parity. */
  for (int32_t k = -200; k <= 200; ++k) {
    const float tie = (float)k + 0.5f;
    check("below a tie", nextafterf(tie, -1000.0f), opbridge_round_half_to_even(nextafterf(tie, -1000.0f)), k);
    check("above a tie", nextafterf(tie, 1000.0f), opbridge_round_half_to_even(nextafterf(tie, 1000.0f)), k + 1);
  }
  /* QuantizeLinear: x / scale on exact halves (scale 0.25: every quotient is exact), every zero point. */
  float input[81];
  int8_t output[81];
  for (int32_t zero_point = -128; zero_point <= 127; zero_point += 5) {
    for (int32_t i = 0; i < 81; ++i) {
      input[i] = (float)(i - 40) * 0.125f; /* quotients (i - 40) / 2: the halves from -20 to 20 */
    }
    if (opbridge_quantize_f32_s8(81, 0.25f, zero_point, 1, input, output) != OPBRIDGE_STATUS_OK) {
      printf("FAIL opbridge_quantize_f32_s8 refused its arguments\n");
      return EXIT_FAILURE;
    }
    for (int32_t i = 0; i < 81; ++i) {
      int32_t expected = nearest_quarter(2 * (i - 40)) + zero_point;
      expected = expected < -128 ? -128 : (expected > 127 ? 127 : expected);
      check("opbridge_quantize_f32_s8", input[i], output[i], expected);
    }
  }
  if (failures != 0) {
    printf("%d failures\n", failures);
    return EXIT_FAILURE;
  }
  printf("rounding halves to even: all checks passed\n");
  return EXIT_SUCCESS;
}
