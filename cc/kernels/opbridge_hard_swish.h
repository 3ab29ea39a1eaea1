/* SPDX-License-Identifier: Apache-2.0 */
/* HARD_SWISH kernels (TFLite Micro's reference semantics, bit for bit; see
 * python/opbridge/ops/hard_swish/reference.py). Each kernel reads element i
 * before it writes element i, so output may be input (the planner runs them
 * in place). */
#ifndef OPBRIDGE_HARD_SWISH_H_
#define OPBRIDGE_HARD_SWISH_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* int8: TFLite Micro's 16-bit fixed point. The centred input times 128 (the
 * "hires" input) is rescaled to the output by output_multiplier (Q0.15) and
 * gated by a "reluish" value in [0, 1] (Q0.15): the hires input rescaled by
 * reluish_multiplier and 2^reluish_exponent onto the scale where 3.0 is
 * 32768, saturated, then mapped from [-1, 1] to [0, 1]; the gated value is
 * shifted right by -output_exponent, offset by output_zero_point and clamped
 * to [-128, 127]. Multipliers in [0, 32767]; output_exponent in [-31, 0];
 * reluish_exponent at least -31 (TFLite's QuantizeMultiplier then
 * DownScaleInt32ToInt16Multiplier, computed at conversion time). */
typedef struct {
  int32_t size;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t output_multiplier;
  int32_t output_exponent;
  int32_t reluish_multiplier;
  int32_t reluish_exponent;
} opbridge_hard_swish_s8_params;

int32_t opbridge_hard_swish_s8(const opbridge_hard_swish_s8_params *params, const int8_t *input, int8_t *output);

/* float32: output[i] = x * min(6, max(0, x + 3)) / 6, in float32 and in that
 * order (TFLite's reference HardSwish): NaN stays NaN, -inf gives NaN, and
 * x * 6 overflows to inf for x > FLT_MAX / 6. */
int32_t opbridge_hard_swish_f32(int32_t size, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_HARD_SWISH_H_ */
