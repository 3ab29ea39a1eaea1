/* SPDX-License-Identifier: Apache-2.0 */
/* LEAKY_RELU kernels (TFLite Micro's reference semantics, bit for bit; see
 * python/opbridge/ops/leaky_relu/reference.py). */
#ifndef OPBRIDGE_LEAKY_RELU_H_
#define OPBRIDGE_LEAKY_RELU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* int8: (x - input_zero_point) rescaled by the identity multiplier when it is
 * >= 0 and by the alpha multiplier below, plus output_zero_point, clamped to
 * [-128, 127]. Multipliers are Q0.31 with shifts in [-31, 30], as TFLite's
 * QuantizeMultiplier makes them. */
typedef struct {
  int32_t size;
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t identity_multiplier;
  int32_t identity_shift;
  int32_t alpha_multiplier;
  int32_t alpha_shift;
} opbridge_leaky_relu_s8_params;

int32_t opbridge_leaky_relu_s8(const opbridge_leaky_relu_s8_params *params, const int8_t *input, int8_t *output);

/* float32: x > 0 ? x : x * alpha (one float32 multiply; NaN stays NaN). */
typedef struct {
  int32_t size;
  float alpha;
} opbridge_leaky_relu_f32_params;

int32_t opbridge_leaky_relu_f32(const opbridge_leaky_relu_f32_params *params, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_LEAKY_RELU_H_ */
