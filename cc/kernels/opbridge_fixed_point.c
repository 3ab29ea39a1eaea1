/* SPDX-License-Identifier: Apache-2.0 */
#include "cc/kernels/opbridge_fixed_point.h"

int32_t opbridge_saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) {
    return INT32_MAX;
  }
  const int64_t product = (int64_t)a * (int64_t)b;
  /* Nudge, then truncate toward zero: rounds to nearest with ties upwards. */
  const int64_t nudge = product >= 0 ? (INT64_C(1) << 30) : (1 - (INT64_C(1) << 30));
  return (int32_t)((product + nudge) / (INT64_C(1) << 31));
}

int32_t opbridge_rounding_divide_by_power_of_two(int32_t x, int32_t exponent) {
  const int32_t mask = (int32_t)((UINT32_C(1) << exponent) - 1u);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  /* >> of a negative int32 is an arithmetic shift on every compiler we use. */
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t opbridge_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t left_shift = shift > 0 ? shift : 0;
  const int32_t right_shift = shift > 0 ? 0 : -shift;
  /* TFLite shifts in int32 and relies on wrap-around; do it in uint32 to stay defined. */
  const int32_t shifted = (int32_t)((uint32_t)x << left_shift);
  return opbridge_rounding_divide_by_power_of_two(
      opbridge_saturating_rounding_doubling_high_mul(shifted, multiplier), right_shift);
}
