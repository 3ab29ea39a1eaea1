/* SPDX-License-Identifier: Apache-2.0 */
#include "cc/kernels/opbridge_hard_swish.h"

#include <stddef.h>

#include "cc/kernels/opbridge_status.h"

/* Every working value below is an int16 value held in an int32_t, so that no
 * intermediate overflows; each step that TFLite Micro stores in an int16_t
 * goes through opbridge_hard_swish_int16, the two's-complement wrap (portable,
 * unlike a conversion to int16_t of an out-of-range value). */
#define OPBRIDGE_HARD_SWISH_INT16_MIN (-32768)
#define OPBRIDGE_HARD_SWISH_INT16_MAX 32767
/* The centred input is shifted left by 7 bits onto the "hires" scale. */
#define OPBRIDGE_HARD_SWISH_HIRES_FACTOR 128
/* A left shift by 16 saturates every non-zero int16; larger amounts give the same result. */
#define OPBRIDGE_HARD_SWISH_MAX_LEFT_SHIFT 16

static int32_t opbridge_hard_swish_int16(int32_t x) {
  const uint32_t bits = (uint32_t)x & 0xFFFFu;
  return (int32_t)bits - (int32_t)((bits & 0x8000u) << 1);
}

/* C99's division truncates toward zero, as C++'s does. */
static int32_t opbridge_hard_swish_high_mul(int32_t a, int32_t b, int32_t rounding) {
  if (a == OPBRIDGE_HARD_SWISH_INT16_MIN && b == OPBRIDGE_HARD_SWISH_INT16_MIN) {
    return OPBRIDGE_HARD_SWISH_INT16_MAX;
  }
  const int32_t product = a * b; /* |a * b| <= 2^30 */
  const int32_t nudge = rounding ? (product >= 0 ? (1 << 14) : 1 - (1 << 14)) : 0;
  return opbridge_hard_swish_int16((product + nudge) / (1 << 15));
}

/* gemmlowp's SaturatingRoundingDoublingHighMul on int16. */
static int32_t opbridge_hard_swish_rounding_high_mul(int32_t a, int32_t b) {
  return opbridge_hard_swish_high_mul(a, b, 1);
}

/* TFLite's SaturatingDoublingHighMul on int16: truncating, no nudge. */
static int32_t opbridge_hard_swish_truncating_high_mul(int32_t a, int32_t b) {
  return opbridge_hard_swish_high_mul(a, b, 0);
}

/* TFLite's SaturatingLeftShift on int16: x * 2^amount clamped to int16; amount >= 0. */
static int32_t opbridge_hard_swish_saturating_left_shift(int32_t x, int32_t amount) {
  const int32_t bounded = amount < OPBRIDGE_HARD_SWISH_MAX_LEFT_SHIFT ? amount : OPBRIDGE_HARD_SWISH_MAX_LEFT_SHIFT;
  const int64_t shifted = (int64_t)x * ((int64_t)1 << bounded);
  if (shifted > OPBRIDGE_HARD_SWISH_INT16_MAX) {
    return OPBRIDGE_HARD_SWISH_INT16_MAX;
  }
  return shifted < OPBRIDGE_HARD_SWISH_INT16_MIN ? OPBRIDGE_HARD_SWISH_INT16_MIN : (int32_t)shifted;
}

/* gemmlowp's RoundingDivideByPOT on int16_t, exponent in [0, 31]: half away
 * from zero up to 15. Its mask, (1 << exponent) - 1, is an int16_t: -1 from 16
 * on, where every x >= 0 gives 1 and every x < 0 gives -1, as in TFLite Micro.
 * >> of a negative integer is an arithmetic shift on every compiler we use. */
static int32_t opbridge_hard_swish_rounding_shift(int32_t x, int32_t exponent) {
  const int32_t mask = opbridge_hard_swish_int16((int32_t)(((UINT32_C(1) << exponent) - 1u) & 0xFFFFu));
  const int32_t remainder = x & mask;
  const int32_t threshold = opbridge_hard_swish_int16((mask >> 1) + (x < 0 ? 1 : 0));
  return opbridge_hard_swish_int16((x >> exponent) + (remainder > threshold ? 1 : 0));
}

int32_t opbridge_hard_swish_s8(const opbridge_hard_swish_s8_params *params, const int8_t *input, int8_t *output) {
  if (params == NULL || input == NULL || output == NULL || params->size < 0 || params->output_exponent > 0 ||
      params->output_exponent < -31 || params->reluish_exponent < -31 || params->output_multiplier < 0 ||
      params->output_multiplier > OPBRIDGE_HARD_SWISH_INT16_MAX || params->reluish_multiplier < 0 ||
      params->reluish_multiplier > OPBRIDGE_HARD_SWISH_INT16_MAX) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t reluish_exponent = params->reluish_exponent;
  for (int32_t i = 0; i < params->size; ++i) {
    /* (x - zero point) * 128 is in [-32640, 32640]: an int16 with no wrap. */
    const int32_t hires = ((int32_t)input[i] - params->input_zero_point) * OPBRIDGE_HARD_SWISH_HIRES_FACTOR;
    const int32_t on_output_scale = opbridge_hard_swish_rounding_high_mul(hires, params->output_multiplier);
    /* hires on the scale where 3.0 is 32768, saturated: in [-1, 1] as Q0.15. */
    int32_t reluish = hires;
    if (reluish_exponent > 0) {
      reluish = opbridge_hard_swish_saturating_left_shift(reluish, reluish_exponent - 1);
    }
    reluish = opbridge_hard_swish_rounding_high_mul(reluish, params->reluish_multiplier);
    if (reluish_exponent > 0) {
      reluish = opbridge_hard_swish_saturating_left_shift(reluish, 1);
    } else if (reluish_exponent < 0) {
      reluish = opbridge_hard_swish_rounding_shift(reluish, -reluish_exponent);
    }
    /* [-1, 1] to [0, 1]: in [0, 32767]. */
    const int32_t gate = (reluish + (1 << 15)) >> 1;
    const int32_t gated = opbridge_hard_swish_truncating_high_mul(gate, on_output_scale);
    int32_t value = opbridge_hard_swish_int16(opbridge_hard_swish_rounding_shift(gated, -params->output_exponent) +
                                              params->output_zero_point);
    value = value < -128 ? -128 : (value > 127 ? 127 : value);
    output[i] = (int8_t)value;
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_hard_swish_f32(int32_t size, const float *input, float *output) {
  if (input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    const float x = input[i];
    const float shifted = x + 3.0f;
    /* std::max(0, s) and std::min(6, r) as C++ writes them: NaN gives 0. */
    const float raised = 0.0f < shifted ? shifted : 0.0f;
    const float capped = raised < 6.0f ? raised : 6.0f;
    output[i] = x * capped / 6.0f;
  }
  return OPBRIDGE_STATUS_OK;
}
