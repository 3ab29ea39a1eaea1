/* SPDX-License-Identifier: Apache-2.0 */
/* QUANTIZE float32 -> int16 and DEQUANTIZE int16 -> float32: TFLite Micro's AffineQuantize and
 * Dequantize for 16x8 models (the integer requantizations are in opbridge_quantize.c). */
#include <math.h>
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"
#include "cc/kernels/opbridge_kernels_s16.h"

static int16_t clamp_s16(int32_t value, int32_t minimum, int32_t maximum) {
  if (value < minimum) {
    value = minimum;
  }
  if (value > maximum) {
    value = maximum;
  }
  return (int16_t)value;
}

int32_t opbridge_quantize_f32_s16(int32_t size, float scale, int32_t zero_point, int32_t half_to_even,
                                  const float *input, int16_t *output) {
  if (input == NULL || output == NULL || size < 0 || !(scale > 0.0f)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (half_to_even) {
    const float low = (float)(-32768 - zero_point);
    const float high = (float)(32767 - zero_point);
    for (int32_t i = 0; i < size; ++i) {
      const float quotient = input[i] / scale;
      /* Saturate before rounding (infinities included); NaN fails both tests and becomes 0. */
      const float saturated =
          quotient < low ? low : (quotient > high ? high : (quotient == quotient ? quotient : 0.0f));
      output[i] = (int16_t)(opbridge_round_half_to_even(saturated) + zero_point);
    }
    return OPBRIDGE_STATUS_OK;
  }
  for (int32_t i = 0; i < size; ++i) {
    const float scaled = roundf(input[i] / scale);
    /* Saturate in float first (a float outside int32 has no defined conversion); any value
     * beyond +-131072 saturates the int16 result the same way. NaN becomes 0. */
    const int32_t value =
        scaled > 131072.0f ? 131072 : (scaled < -131072.0f ? -131072 : (scaled == scaled ? (int32_t)scaled : 0));
    output[i] = clamp_s16(value + zero_point, -32768, 32767);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_dequantize_s16_f32(int32_t size, float scale, int32_t zero_point, const int16_t *input,
                                    float *output) {
  if (input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    /* float32 scale times a whole number of at most 17 bits: the double product TFLite Micro
     * forms is exact, so its rounding to float equals this correctly rounded float product. */
    output[i] = scale * (float)((int32_t)input[i] - zero_point);
  }
  return OPBRIDGE_STATUS_OK;
}
