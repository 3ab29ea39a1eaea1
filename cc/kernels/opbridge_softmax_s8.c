/* SPDX-License-Identifier: Apache-2.0 */
/*
 * int8 SOFTMAX with gemmlowp's fixed-point exp and reciprocal
 * (opbridge_gemmlowp.h), as TFLite Micro's reference kernel computes it.
 */
#include <stddef.h>

#include "cc/kernels/opbridge_gemmlowp.h"
#include "cc/kernels/opbridge_kernel_variant.h"
#include "cc/kernels/opbridge_kernels_internal.h"

#define SCALED_DIFF_INTEGER_BITS 5
#define ACCUMULATION_INTEGER_BITS 12

static int32_t opbridge_softmax_count_leading_zeros(uint32_t x) {
  int32_t zeros = 0;
  for (uint32_t bit = UINT32_C(1) << 31; bit != 0 && (x & bit) == 0; bit >>= 1) {
    ++zeros;
  }
  return zeros;
}

OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_softmax_s8(const opbridge_softmax_s8_params *params, const int8_t *input, int8_t *output) {
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
        const int32_t scaled = opbridge_gemmlowp_multiply((int32_t)((uint32_t)difference << params->input_left_shift),
                                        params->input_multiplier);
        const int32_t exp = opbridge_gemmlowp_exp_on_negative_values(scaled, SCALED_DIFF_INTEGER_BITS);
        sum_of_exps += opbridge_gemmlowp_multiply_by_power_of_two(exp, -ACCUMULATION_INTEGER_BITS);
      }
    }
    const int32_t headroom_plus_one = opbridge_softmax_count_leading_zeros((uint32_t)sum_of_exps);
    const int32_t bits_over_unit = ACCUMULATION_INTEGER_BITS - headroom_plus_one;
    const int32_t shifted_sum_minus_one =
        (int32_t)(((uint32_t)sum_of_exps << headroom_plus_one) - (UINT32_C(1) << 31));
    const int32_t reciprocal = opbridge_gemmlowp_one_over_one_plus_x(shifted_sum_minus_one);
    const int32_t exponent = bits_over_unit + 31 - 8;
    if (exponent < 0 || exponent > 31) {
      return OPBRIDGE_STATUS_UNSUPPORTED;
    }
    for (int32_t c = 0; c < params->depth; ++c) {
      const int32_t difference = (int32_t)in[c] - maximum;
      if (difference >= params->diff_min) {
        const int32_t scaled = opbridge_gemmlowp_multiply((int32_t)((uint32_t)difference << params->input_left_shift),
                                        params->input_multiplier);
        const int32_t probability =
            opbridge_rounding_divide_by_power_of_two(
                opbridge_gemmlowp_multiply(reciprocal,
                                           opbridge_gemmlowp_exp_on_negative_values(scaled, SCALED_DIFF_INTEGER_BITS)),
                exponent);
        out[c] = opbridge_clamp_s8(probability - 128, -128, 127);
      } else {
        out[c] = -128;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
