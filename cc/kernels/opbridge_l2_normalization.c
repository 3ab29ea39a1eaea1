/* SPDX-License-Identifier: Apache-2.0 */
/* L2_NORMALIZATION on float32 and int8 (see opbridge_l2_normalization.h). */
#include "cc/kernels/opbridge_l2_normalization.h"

#include <math.h>
#include <stddef.h>

#include "cc/kernels/opbridge_fixed_point.h"

int32_t opbridge_l2_normalization_f32(const opbridge_l2_normalization_params *params, const float *input,
                                      float *output) {
  if (params == NULL || input == NULL || output == NULL || params->rows < 0 || params->depth <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const float epsilon = 1e-6f;
  for (int32_t r = 0; r < params->rows; ++r) {
    const float *row = input + r * params->depth;
    float *out = output + r * params->depth;
    float squared = 0.0f;
    for (int32_t c = 0; c < params->depth; ++c) {
      squared += row[c] * row[c];
    }
    float norm = sqrtf(squared);
    norm = norm < epsilon ? epsilon : norm; /* std::max(norm, epsilon): a NaN norm stays NaN */
    for (int32_t c = 0; c < params->depth; ++c) {
      out[c] = row[c] / norm;
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* gemmlowp's SaturatingRoundingMultiplyByPOT<exponent> for 0 < exponent < 31. */
static int32_t opbridge_l2_saturating_shift_left(int32_t x, int32_t exponent) {
  const int32_t threshold = (int32_t)((UINT32_C(1) << (31 - exponent)) - 1u);
  if (x > threshold) {
    return INT32_MAX;
  }
  if (x < -threshold) {
    return INT32_MIN;
  }
  return (int32_t)((uint32_t)x << exponent);
}

/* TFLite's GetInvSqrtQuantizedMultiplierExp(value, kReverseShift): 1/sqrt(value) as a
 * multiplier and a left shift; five Newton-Raphson steps in gemmlowp's Q3.28. */
static void opbridge_l2_inv_sqrt(int32_t value, int32_t *multiplier, int32_t *shift) {
  if (value <= 1) {
    *multiplier = INT32_MAX;
    *shift = 0;
    return;
  }
  int32_t right_shift = 11;
  while (value >= (INT32_C(1) << 29)) {
    value /= 4;
    ++right_shift;
  }
  int32_t leading_zeros = 0;
  while ((value << leading_zeros & INT32_C(0x40000000)) == 0) { /* value < 2^29: bit 31 is clear */
    ++leading_zeros;
  }
  ++leading_zeros; /* counting bit 31 */
  const int32_t pairs = (leading_zeros - 1) / 2 - 1;
  right_shift -= pairs;
  value <<= 2 * pairs;
  const int32_t half_input = opbridge_rounding_divide_by_power_of_two(value >> 1, 1);
  const int32_t one = INT32_C(1) << 28;                                 /* 1.0 in Q3.28 */
  const int32_t three_halves = (INT32_C(1) << 28) + (INT32_C(1) << 27); /* 1.5 in Q3.28 */
  int32_t x = one;
  for (int i = 0; i < 5; ++i) {
    const int32_t square = opbridge_saturating_rounding_doubling_high_mul(x, x);
    const int32_t cube_q9 = opbridge_saturating_rounding_doubling_high_mul(square, x); /* Q9.22 */
    const int32_t cube = opbridge_l2_saturating_shift_left(cube_q9, 6);                /* back to Q3.28 */
    const int32_t first = opbridge_saturating_rounding_doubling_high_mul(three_halves, x);
    const int32_t second = opbridge_saturating_rounding_doubling_high_mul(half_input, cube);
    x = opbridge_l2_saturating_shift_left((int32_t)((uint32_t)first - (uint32_t)second), 3);
  }
  x = opbridge_saturating_rounding_doubling_high_mul(x, INT32_C(1518500250)); /* sqrt(2) / 2 in Q0.31 */
  if (right_shift < 0) {
    x = (int32_t)((uint32_t)x << -right_shift);
    right_shift = 0;
  }
  *multiplier = x;
  *shift = -right_shift;
}

int32_t opbridge_l2_normalization_s8(const opbridge_l2_normalization_params *params, const int8_t *input,
                                     int8_t *output) {
  if (params == NULL || input == NULL || output == NULL || params->rows < 0 || params->depth <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t r = 0; r < params->rows; ++r) {
    const int8_t *row = input + r * params->depth;
    int8_t *out = output + r * params->depth;
    uint32_t squared = 0u; /* wraps as TFLite Micro's int32 sum would (past 2^16 values) */
    for (int32_t c = 0; c < params->depth; ++c) {
      const int32_t v = (int32_t)row[c] - params->input_zero_point;
      squared += (uint32_t)(v * v);
    }
    int32_t multiplier;
    int32_t shift;
    opbridge_l2_inv_sqrt((int32_t)squared, &multiplier, &shift);
    for (int32_t c = 0; c < params->depth; ++c) {
      const int32_t v = (int32_t)row[c] - params->input_zero_point;
      int32_t scaled = opbridge_rescale(v, multiplier, shift + 7); /* outputs in units of 2^-7 */
      scaled = scaled < -128 ? -128 : scaled;
      scaled = scaled > 127 ? 127 : scaled;
      out[c] = (int8_t)scaled;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
