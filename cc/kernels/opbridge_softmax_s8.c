/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SOFTMAX of int8 input, to int8 or int16 output, with gemmlowp's fixed-point exp and
 * reciprocal (opbridge_gemmlowp.h), as TFLite Micro's reference kernel computes it.
 */
#include <stddef.h>
#include <stdint.h>

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

/* The int8 path of TFLite Micro's reference Softmax for either output type: the row's probabilities are divided
 * down to `output_bits` bits and offset by the output type's minimum (int8: scale 1/256, zero point -128; int16:
 * scale 1/65536, zero point -32768); differences below diff_min give that minimum. Exactly one of output_s8 and
 * output_s16 is set. */
OPBRIDGE_OPTIMIZE_FOR_SIZE static int32_t opbridge_softmax_s8_rows(const opbridge_softmax_s8_params *params,
                                                                   const int8_t *input, int8_t *output_s8,
                                                                   int16_t *output_s16) {
  if (params == NULL || input == NULL || (output_s8 == NULL) == (output_s16 == NULL) || params->rows <= 0 ||
      params->depth <= 0 || params->input_left_shift < 0 || params->input_left_shift > 31) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t output_bits = output_s16 != NULL ? 16 : 8;
  const int32_t output_min = output_s16 != NULL ? INT16_MIN : INT8_MIN;
  const int32_t output_max = output_s16 != NULL ? INT16_MAX : INT8_MAX;
  for (int32_t row = 0; row < params->rows; ++row) {
    const int8_t *in = input + row * params->depth;
    const int32_t offset = row * params->depth;
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
    const int32_t exponent = bits_over_unit + 31 - output_bits;
    if (exponent < 0 || exponent > 31) {
      return OPBRIDGE_STATUS_UNSUPPORTED;
    }
    for (int32_t c = 0; c < params->depth; ++c) {
      const int32_t difference = (int32_t)in[c] - maximum;
      int32_t value = output_min;
      if (difference >= params->diff_min) {
        const int32_t scaled = opbridge_gemmlowp_multiply((int32_t)((uint32_t)difference << params->input_left_shift),
                                        params->input_multiplier);
        const int32_t probability =
            opbridge_rounding_divide_by_power_of_two(
                opbridge_gemmlowp_multiply(reciprocal,
                                           opbridge_gemmlowp_exp_on_negative_values(scaled, SCALED_DIFF_INTEGER_BITS)),
                exponent);
        value = probability + output_min;
        value = value < output_min ? output_min : (value > output_max ? output_max : value);
      }
      if (output_s16 != NULL) {
        output_s16[offset + c] = (int16_t)value;
      } else {
        output_s8[offset + c] = (int8_t)value;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_softmax_s8(const opbridge_softmax_s8_params *params, const int8_t *input, int8_t *output) {
  return output == NULL ? OPBRIDGE_STATUS_INVALID_ARGUMENT : opbridge_softmax_s8_rows(params, input, output, NULL);
}

int32_t opbridge_softmax_s8_s16(const opbridge_softmax_s8_params *params, const int8_t *input, int16_t *output) {
  return output == NULL ? OPBRIDGE_STATUS_INVALID_ARGUMENT : opbridge_softmax_s8_rows(params, input, NULL, output);
}
