/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opbridge's portable int16 kernels: TFLite's 16x8 quantization (int16 activations, int8
 * weights, int64 or int32 biases), bit for bit with TFLite Micro's reference kernels (see
 * python/opbridge/ops/<op>/reference.py, the golden model). Conventions as in
 * opbridge_kernels_s8.h: a const parameter struct per call, an int32_t status, offsets that are
 * negated input zero points and output zero points, Q0.31 multipliers with shifts (positive:
 * left). activation_min <= activation_max, both in [-32768, 32767] for int16 outputs.
 */
#ifndef OPBRIDGE_KERNELS_S16_H_
#define OPBRIDGE_KERNELS_S16_H_

#include <stddef.h>
#include <stdint.h>

#include "cc/kernels/opbridge_kernels_s8.h"
#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* QUANTIZE float32 -> int16: round(x / scale) + zero_point, saturated; NaN -> zero_point. round()
 * takes halves away from zero (TFLite), or to even when half_to_even is 1 (ONNX QuantizeLinear). */
int32_t opbridge_quantize_f32_s16(int32_t size, float scale, int32_t zero_point, int32_t half_to_even,
                                  const float *input, int16_t *output);

/* QUANTIZE between int8 and int16, and int16 -> int16: opbridge_quantize.h, with the other integer
 * requantizations. */

/* DEQUANTIZE int16 -> float32: scale * (q - zero_point). */
int32_t opbridge_dequantize_s16_f32(int32_t size, float scale, int32_t zero_point, const int16_t *input,
                                    float *output);

/* FULLY_CONNECTED 16x8: output[b][u] = requantize(sum_d (input[b][d] + in_off) * (filter[u][d] + f_off) + bias[u]),
 * int16 input and output, int8 filter [output_depth][input_depth]. opbridge_fully_connected_s16 takes an int64 bias
 * (may be NULL): the sum is int64 and rescaled by TFLite's int64 MultiplyByQuantizedMultiplier (the multiplier
 * reduced to 16 bits). opbridge_fully_connected_s16_bias32 takes an int32 bias: the sum wraps in int32 and is
 * rescaled by the int32 one. params->requantization has fixed-point multipliers only (scales NULL). */
int32_t opbridge_fully_connected_s16(const opbridge_fully_connected_s8_params *params, const int16_t *input,
                                     const int8_t *filter, const int64_t *bias, int16_t *output);
int32_t opbridge_fully_connected_s16_bias32(const opbridge_fully_connected_s8_params *params, const int16_t *input,
                                            const int8_t *filter, const int32_t *bias, int16_t *output);

typedef struct {
  int32_t rows;
  int32_t depth;
  int32_t input_multiplier; /* input_scale * beta / (10 / 65535), QuantizeMultiplier */
  int32_t input_shift;
  const int16_t *exp_lut;                 /* 513 entries: exp over [-10, 0] */
  const int16_t *one_over_one_plus_x_lut; /* 513 entries: 1 / (1 + x) over [0, 1] */
} opbridge_softmax_s16_params;

/* SOFTMAX 16x8 (TFLite's SoftmaxInt16) over each row of `depth` values: input zero point 0, output scale
 * 1/32768 and zero point 0. The tables are TFLite's LUTPopulate<int16_t> ones (the emitter writes them). */
int32_t opbridge_softmax_s16(const opbridge_softmax_s16_params *params, const int16_t *input, int16_t *output);

/* ADD 16x8 (TFLite Micro's general int16 path): both inputs shifted left by params->left_shift (15), rescaled to
 * twice the larger input scale, added, rescaled to the output, clamped; 4-D broadcasting by strides of 0. */
int32_t opbridge_add_s16(const opbridge_add_s8_params *params, const int16_t *input1, const int16_t *input2,
                         int16_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_KERNELS_S16_H_ */
