/* SPDX-License-Identifier: Apache-2.0 */
/* SOFTMAX with int16 input and output (TFLite's 16x8 quantization), bit for bit with TFLite Micro's
 * reference SoftmaxInt16: interpolated table lookups for exp and for the reciprocal of the sum. */
#include <stddef.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernels_s16.h"

static int16_t saturate_s16(int32_t value) {
  return (int16_t)(value < -32768 ? -32768 : (value > 32767 ? 32767 : value));
}

/* TFLite's LUTLookup for int16: the entry at the top 9 bits, plus the slope to the next entry times the low 7
 * bits, rounded. */
static int16_t lut_lookup(int16_t value, const int16_t *lut) {
  /* >> of a negative integer is an arithmetic shift on every compiler we use. */
  const int32_t index = 256 + ((int32_t)value >> 7);
  const int32_t offset = (int32_t)value & 0x7f;
  const int32_t base = lut[index];
  const int32_t slope = (int16_t)(lut[index + 1] - lut[index]);
  const int32_t delta = (slope * offset + 64) >> 7;
  return (int16_t)(base + delta);
}

static int32_t count_leading_zeros(uint32_t value) {
  int32_t count = 0;
  for (uint32_t bit = UINT32_C(1) << 31; bit != 0 && (value & bit) == 0; bit >>= 1) {
    ++count;
  }
  return count;
}

int32_t opbridge_softmax_s16(const opbridge_softmax_s16_params *params, const int16_t *input, int16_t *output) {
  if (params == NULL || input == NULL || output == NULL || params->depth < 1 || params->exp_lut == NULL ||
      params->one_over_one_plus_x_lut == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->depth;
  for (int32_t r = 0; r < params->rows; ++r) {
    const int16_t *row = input + (size_t)r * (size_t)depth;
    int16_t *exps = output + (size_t)r * (size_t)depth; /* the exps are kept in the output, as TFLite does */
    int16_t maximum = -32768;
    for (int32_t c = 0; c < depth; ++c) {
      maximum = row[c] > maximum ? row[c] : maximum;
    }
    int32_t sum_of_exps = 0;
    for (int32_t c = 0; c < depth; ++c) {
      /* [-65535, 0] scaled onto [-10, 0] in steps of 10 / 65535, recentred onto the int16 range. */
      const int32_t scaled = opbridge_multiply_by_quantized_multiplier((int32_t)row[c] - maximum,
                                                                       params->input_multiplier, params->input_shift);
      const int16_t exp_value = lut_lookup(saturate_s16(scaled + 32767), params->exp_lut);
      sum_of_exps += exp_value;
      exps[c] = exp_value;
    }
    /* The sum normalised to [1, 2) in Q1.15 (leading zeros), recentred from [0, 65535] onto int16 for 1 / (1 + x). */
    const int32_t headroom_plus_one = count_leading_zeros((uint32_t)sum_of_exps);
    const int32_t shifted_sum = (int32_t)((((int64_t)sum_of_exps << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int16_t reciprocal =
        lut_lookup(saturate_s16(shifted_sum - ((1 << 15) + (1 << 16))), params->one_over_one_plus_x_lut);
    const int32_t right_shift = 31 - headroom_plus_one;
    const int64_t rounding = (int64_t)1 << (right_shift - 1);
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t result = (int32_t)(((int64_t)exps[c] * (int64_t)reciprocal + rounding) >> right_shift);
      exps[c] = (int16_t)(result < 0 ? 0 : (result > 32767 ? 32767 : result));
    }
  }
  return OPBRIDGE_STATUS_OK;
}
