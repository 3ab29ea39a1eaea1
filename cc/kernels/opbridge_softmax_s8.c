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
/* A row's exps, computed for the sum, are kept on the stack (4 bytes each) for the outputs when the
 * row has at most this many values: an exp is most of a softmax's work. Longer rows compute them
 * again. */
#define OPBRIDGE_SOFTMAX_KEPT_EXPS 128
/* Marks a kept value below diff_min (an exp is never negative). */
#define OPBRIDGE_SOFTMAX_NO_EXP (-1)

/* Halving steps: five tests, where a bit at a time took up to 32 (a row's sum has about 20 leading zeros). */
static int32_t opbridge_softmax_count_leading_zeros(uint32_t x) {
  if (x == 0) {
    return 32;
  }
  int32_t zeros = 0;
  for (int32_t width = 16; width > 0; width >>= 1) {
    if ((x >> (32 - width)) == 0) {
      zeros += width;
      x <<= width;
    }
  }
  return zeros;
}

/* exp(difference x the input scale) in Q0.31, or OPBRIDGE_SOFTMAX_NO_EXP below diff_min (its output is the
 * output type's minimum and it adds nothing to the sum). */
static int32_t opbridge_softmax_exp(const opbridge_softmax_s8_params *params, int32_t difference) {
  if (difference < params->diff_min) {
    return OPBRIDGE_SOFTMAX_NO_EXP;
  }
  const int32_t scaled =
      opbridge_gemmlowp_multiply((int32_t)((uint32_t)difference << params->input_left_shift), params->input_multiplier);
  return opbridge_gemmlowp_exp_on_negative_values(scaled, SCALED_DIFF_INTEGER_BITS);
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
  int32_t exps[OPBRIDGE_SOFTMAX_KEPT_EXPS];
  const int32_t kept = params->depth <= OPBRIDGE_SOFTMAX_KEPT_EXPS;
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
      const int32_t exp = opbridge_softmax_exp(params, (int32_t)in[c] - maximum);
      if (kept) {
        exps[c] = exp;
      }
      if (exp != OPBRIDGE_SOFTMAX_NO_EXP) {
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
      const int32_t exp = kept ? exps[c] : opbridge_softmax_exp(params, (int32_t)in[c] - maximum);
      int32_t value = output_min;
      if (exp != OPBRIDGE_SOFTMAX_NO_EXP) {
        const int32_t probability =
            opbridge_rounding_divide_by_power_of_two(opbridge_gemmlowp_multiply(reciprocal, exp), exponent);
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
