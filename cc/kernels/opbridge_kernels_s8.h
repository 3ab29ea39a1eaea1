/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opbridge's portable int8 kernels: TFLite Micro's reference semantics, bit
 * for bit (see python/opbridge/ops/<op>/reference.py, the golden model).
 *
 * Interface, as in CMSIS-NN: stateless functions named
 * opbridge_<op>_s8, a const parameter struct per call, caller-owned
 * scratch, and an int32_t status (opbridge_status.h). Scratch sizes are
 * defined once, by the operator's `scratch_bytes` in its emit_c.py, which
 * the memory planner reads (only MEAN needs any).
 *
 * Tensors are NHWC. Offsets are negated zero points for inputs
 * (input_offset = -input_zero_point, in [-127, 128]) and zero points for
 * outputs (output_offset in [-128, 127]). Multipliers are Q0.31 in
 * [2^30, 2^31) (or 0) with shifts in [-31, 30] (positive: left), as
 * produced by TFLite's QuantizeMultiplier. activation_min <= activation_max,
 * both in [-128, 127].
 */
#ifndef OPBRIDGE_KERNELS_S8_H_
#define OPBRIDGE_KERNELS_S8_H_

#include <stddef.h>
#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Shape of an NHWC tensor. */
typedef struct {
  int32_t batches;
  int32_t height;
  int32_t width;
  int32_t channels;
} opbridge_dims;

/* Requantization per output channel: `count` is 1 (per tensor) or the channel count.
 * TFLite models set multipliers and shifts (fixed point, bit-exact with TFLite Micro);
 * ONNX models set scales instead (float32 accumulator * scale, saturated, halves
 * rounded to even, as ONNX's QLinearConv and QLinearMatMul in onnxruntime). */
typedef struct {
  const int32_t *multipliers;
  const int32_t *shifts;
  int32_t count;
  const float *scales; /* NULL unless the model is ONNX's */
} opbridge_requantization;

typedef struct {
  int32_t input_offset;
  int32_t filter_offset; /* -filter zero point; 0 for symmetric int8 filters */
  int32_t output_offset;
  int32_t activation_min;
  int32_t activation_max;
  int32_t batches;
  int32_t input_depth;  /* accumulation depth */
  int32_t output_depth; /* units */
  opbridge_requantization requantization;
} opbridge_fully_connected_s8_params;

/* output[b][u] = requantize(sum_d (input[b][d] + in_off) * (filter[u][d] + f_off) + bias[u]).
 * filter is [output_depth][input_depth]; bias (int32, may be NULL) is [output_depth]. */
int32_t opbridge_fully_connected_s8(const opbridge_fully_connected_s8_params *params, const int8_t *input,
                                    const int8_t *filter, const int32_t *bias, int8_t *output);

typedef struct {
  int32_t input_offset;
  int32_t output_offset;
  int32_t activation_min;
  int32_t activation_max;
  int32_t stride_height;
  int32_t stride_width;
  int32_t dilation_height;
  int32_t dilation_width;
  int32_t padding_height; /* rows of padding before the input */
  int32_t padding_width;
  int32_t depth_multiplier; /* depthwise only: output channels per input channel */
  opbridge_dims input;
  opbridge_dims filter; /* conv: [out_ch, h, w, in_ch]; depthwise: [1, h, w, out_ch] */
  opbridge_dims output;
  opbridge_requantization requantization; /* per output channel */
} opbridge_conv_s8_params;

/* 2-D convolution; taps outside the input are skipped (zero-point padding). */
int32_t opbridge_conv_2d_s8(const opbridge_conv_s8_params *params, const int8_t *input, const int8_t *filter,
                            const int32_t *bias, int8_t *output);

/* Depthwise 2-D convolution: output channel c reads input channel c / depth_multiplier. */
int32_t opbridge_depthwise_conv_2d_s8(const opbridge_conv_s8_params *params, const int8_t *input,
                                      const int8_t *filter, const int32_t *bias, int8_t *output);

typedef struct {
  int32_t activation_min;
  int32_t activation_max;
  int32_t stride_height;
  int32_t stride_width;
  int32_t filter_height;
  int32_t filter_width;
  int32_t padding_height;
  int32_t padding_width;
  opbridge_dims input;
  opbridge_dims output;
} opbridge_pool_s8_params;

/* Average over the window's positions inside the input, rounded half away from zero. */
int32_t opbridge_average_pool_2d_s8(const opbridge_pool_s8_params *params, const int8_t *input, int8_t *output);

/* Maximum over the window's positions inside the input. */
int32_t opbridge_max_pool_2d_s8(const opbridge_pool_s8_params *params, const int8_t *input, int8_t *output);

typedef struct {
  int32_t input1_offset;
  int32_t input2_offset;
  int32_t output_offset;
  int32_t left_shift; /* headroom before rescaling, 20 for int8 */
  int32_t input1_multiplier;
  int32_t input1_shift; /* <= 0 */
  int32_t input2_multiplier;
  int32_t input2_shift; /* <= 0 */
  int32_t output_multiplier;
  int32_t output_shift; /* <= 0 */
  int32_t activation_min;
  int32_t activation_max;
  int32_t output_shape[4];
  int32_t input1_strides[4]; /* element strides; 0 along broadcast dimensions */
  int32_t input2_strides[4];
} opbridge_add_s8_params;

/* Element-wise quantized sum with 4-D broadcasting (strides of 0). */
int32_t opbridge_add_s8(const opbridge_add_s8_params *params, const int8_t *input1, const int8_t *input2,
                        int8_t *output);

/* Subtraction has the same parameters as addition: output = input1 - input2. */
int32_t opbridge_sub_s8(const opbridge_add_s8_params *params, const int8_t *input1, const int8_t *input2,
                        int8_t *output);

typedef struct {
  int32_t input1_offset;
  int32_t input2_offset;
  int32_t output_offset;
  int32_t output_multiplier;
  int32_t output_shift;
  int32_t activation_min;
  int32_t activation_max;
  int32_t output_shape[4];
  int32_t input1_strides[4];
  int32_t input2_strides[4];
} opbridge_mul_s8_params;

/* Element-wise quantized product with 4-D broadcasting (strides of 0). */
int32_t opbridge_mul_s8(const opbridge_mul_s8_params *params, const int8_t *input1, const int8_t *input2,
                        int8_t *output);

typedef struct {
  int32_t size;
  int32_t input_offset;
  int32_t output_offset;
  int32_t multiplier;
  int32_t shift;
  int32_t activation_min;
  int32_t activation_max;
} opbridge_requantize_s8_params;

/* output = clamp(rescale(input + input_offset) + output_offset): RELU, RELU6,
 * and QUANTIZE from int8 to int8. */
int32_t opbridge_requantize_s8(const opbridge_requantize_s8_params *params, const int8_t *input, int8_t *output);

/* QUANTIZE float32 -> int8: round(x / scale) + zero_point, saturated; NaN -> zero_point. round()
 * takes halves away from zero (TFLite), or to even when half_to_even is 1 (ONNX QuantizeLinear). */
int32_t opbridge_quantize_f32_s8(int32_t size, float scale, int32_t zero_point, int32_t half_to_even,
                                 const float *input, int8_t *output);

/* DEQUANTIZE int8 -> float32: scale * (q - zero_point). */
int32_t opbridge_dequantize_s8_f32(int32_t size, float scale, int32_t zero_point, const int8_t *input,
                                   float *output);

typedef struct {
  int32_t input_shape[5];  /* left-padded with 1s */
  int32_t output_shape[5];
  int32_t padding_before[5];
  int32_t pad_value;
} opbridge_pad_s8_params;

/* Constant padding of up to 5-D tensors. */
int32_t opbridge_pad_s8(const opbridge_pad_s8_params *params, const int8_t *input, int8_t *output);

typedef struct {
  int32_t input_shape[4]; /* left-padded with 1s */
  int32_t reduce[4];      /* 1 for each reduced dimension */
  int32_t output_size;
  int32_t count;          /* elements reduced into each output */
  int32_t input_zero_point;
  int32_t output_zero_point;
  int32_t multiplier;     /* input/output scale with 1/count folded in */
  int32_t shift;
  float scale; /* > 0: ONNX's output stage instead (multiplier and shift unused) */
} opbridge_mean_s8_params;

/* Mean over the reduced dimensions; `sum` is caller scratch of output_size int32s. Each output is the
 * sum of its inputs less input_zero_point x count, rescaled: by TFLite's fixed-point multiplier and
 * shift (halves away from zero), or, when `scale` > 0, as onnxruntime's QLinearGlobalAveragePool
 * does: float32(centred sum) x scale (input scale / (output scale x count), in float32), saturated to
 * the int8 range around the output zero point, rounded halves to even. */
int32_t opbridge_mean_s8(const opbridge_mean_s8_params *params, const int8_t *input, int32_t *sum, int8_t *output);

typedef struct {
  int32_t rows;
  int32_t depth;
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t diff_min;
} opbridge_softmax_s8_params;

/* Softmax over each row of `depth` values; output scale 1/256, zero point -128. */
int32_t opbridge_softmax_s8(const opbridge_softmax_s8_params *params, const int8_t *input, int8_t *output);

/* The same of int8 input to int16 output (TFLite's int8 -> int16 softmax): scale 1/65536, zero point -32768. */
int32_t opbridge_softmax_s8_s16(const opbridge_softmax_s8_params *params, const int8_t *input, int16_t *output);

typedef struct {
  int32_t size;
  int32_t input_zero_point;
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t input_range_radius; /* |q - zero point| at or beyond this saturates */
} opbridge_activation_s8_params;

/* LOGISTIC: output scale 1/256, zero point -128. */
int32_t opbridge_logistic_s8(const opbridge_activation_s8_params *params, const int8_t *input, int8_t *output);
/* TANH: output scale 1/128, zero point 0. */
int32_t opbridge_tanh_s8(const opbridge_activation_s8_params *params, const int8_t *input, int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_KERNELS_S8_H_ */
