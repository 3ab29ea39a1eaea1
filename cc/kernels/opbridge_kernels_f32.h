/* SPDX-License-Identifier: Apache-2.0 */
/*
 * float32 kernels of the built-in operators (TFLite Micro's float reference
 * semantics). Each kernel accumulates in the order the NumPy reference
 * (python/opbridge/ops/<op>/reference.py) does, so the two agree bit for bit
 * except where libm's transcendental functions (expf, tanhf) round differently.
 * Emitted code and these kernels are C99: GCC then does not contract a*b+c
 * into a fused multiply-add, which would round differently from NumPy.
 */
#ifndef OPBRIDGE_KERNELS_F32_H_
#define OPBRIDGE_KERNELS_F32_H_

#include <stddef.h>
#include <stdint.h>

#include "cc/kernels/opbridge_kernels_int.h"
#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Convolutions, fully connected, transpose, pad ------------------------ */

/* Convolutions: tensors are NHWC, the filter OHWI (conv) or [1, H, W, out_channels]
 * (depthwise), the bias (may be NULL) [out_channels]. Each output is
 * clamp(sum + bias), the sum taken over filter_y, filter_x, then input channel,
 * in that order, skipping taps outside the input (TFLite Micro's float
 * reference Conv / DepthwiseConv). The clamp is min(max(x, activation_min),
 * activation_max) (a NaN passes through): [-FLT_MAX, FLT_MAX] without a fused
 * activation, [0, FLT_MAX] RELU, [0, 6] RELU6, [-1, 1] RELU_N1_TO_1. */
typedef struct {
  float activation_min;
  float activation_max;
  int32_t stride_height; /* >= 1 */
  int32_t stride_width;
  int32_t dilation_height; /* >= 1 */
  int32_t dilation_width;
  int32_t padding_height; /* rows of (skipped) padding before the input, >= 0 */
  int32_t padding_width;
  int32_t depth_multiplier; /* depthwise only: output channels per input channel */
  int32_t input_shape[4];   /* [batches, height, width, channels] */
  int32_t filter_shape[4];  /* conv: [out_channels, h, w, channels]; depthwise: [1, h, w, out_channels] */
  int32_t output_shape[4];  /* [batches, out_height, out_width, out_channels] */
} opbridge_conv_f32_params;

/* 2-D convolution (no groups: the filter's depth is the input's). */
int32_t opbridge_conv_f32(const opbridge_conv_f32_params *params, const float *input, const float *filter,
                          const float *bias, float *output);

/* Depthwise 2-D convolution: output channel c reads input channel c / depth_multiplier. */
int32_t opbridge_depthwise_conv_f32(const opbridge_conv_f32_params *params, const float *input, const float *filter,
                                    const float *bias, float *output);

typedef struct {
  float activation_min; /* as for the convolutions */
  float activation_max;
  int32_t batches;      /* rows of the input, >= 1 */
  int32_t input_depth;  /* accumulation depth, >= 1 */
  int32_t output_depth; /* units, >= 1 */
} opbridge_fully_connected_f32_params;

/* output[b][u] = clamp(sum_d input[b][d] * filter[u][d] + bias[u]), d in increasing
 * order; filter is [output_depth][input_depth], bias (may be NULL) [output_depth]. */
int32_t opbridge_fully_connected_f32(const opbridge_fully_connected_f32_params *params, const float *input,
                                     const float *filter, const float *bias, float *output);

#define OPBRIDGE_TRANSPOSE_MAX_RANK 6

typedef struct {
  int32_t element_size;                              /* bytes per element, >= 1 */
  int32_t output_shape[OPBRIDGE_TRANSPOSE_MAX_RANK];  /* left-padded with 1s */
  int32_t input_strides[OPBRIDGE_TRANSPOSE_MAX_RANK]; /* input element stride along each output axis */
} opbridge_transpose_params;

/* TRANSPOSE of elements of any size: output element (i0, ..., i5), in row-major
 * order, is input element i0 * input_strides[0] + ... + i5 * input_strides[5]. */
int32_t opbridge_transpose(const opbridge_transpose_params *params, const void *input, void *output);

#define OPBRIDGE_PAD_MAX_RANK 6

typedef struct {
  int32_t element_size;                         /* bytes per element, >= 1 */
  int32_t input_shape[OPBRIDGE_PAD_MAX_RANK];    /* left-padded with 1s */
  int32_t output_shape[OPBRIDGE_PAD_MAX_RANK];   /* >= input_shape + padding_before */
  int32_t padding_before[OPBRIDGE_PAD_MAX_RANK]; /* >= 0 */
} opbridge_pad_params;

/* Constant padding of elements of any size (PAD / PADV2 on float32): each output
 * element outside the input is a copy of the element_size bytes at pad_value. */
int32_t opbridge_pad(const opbridge_pad_params *params, const void *input, const void *pad_value, void *output);

/* --- Element-wise arithmetic, activations, pooling, mean, softmax --------- */

/* Clamps are TFLite's ActivationFunctionWithMinMax, min(max(x, low), high):
 * a NaN passes through, and without a fused activation (low = -FLT_MAX,
 * high = FLT_MAX) an infinite result becomes +-FLT_MAX, as in TFLite Micro.
 * Fused-activation bounds: RELU [0, FLT_MAX], RELU6 [0, 6], RELU_N1_TO_1
 * [-1, 1]; activation_min <= activation_max. */

/* Binary operators broadcast through an opbridge_broadcast_4d (opbridge_kernels_int.h). */
typedef struct {
  opbridge_broadcast_4d broadcast;
  float activation_min; /* the fused activation's clamp (see above) */
  float activation_max;
} opbridge_arithmetic_f32_params;

/* output = clamp(input1 OP input2), one float32 rounding per operation;
 * visits the output in order. DIV by zero gives +-inf (then the clamp) or NaN. */
int32_t opbridge_add_f32(const opbridge_arithmetic_f32_params *params, const float *input1, const float *input2,
                         float *output);
int32_t opbridge_sub_f32(const opbridge_arithmetic_f32_params *params, const float *input1, const float *input2,
                         float *output);
int32_t opbridge_mul_f32(const opbridge_arithmetic_f32_params *params, const float *input1, const float *input2,
                         float *output);
int32_t opbridge_div_f32(const opbridge_arithmetic_f32_params *params, const float *input1, const float *input2,
                         float *output);

/* MINIMUM: input1 < input2 ? input1 : input2; MAXIMUM: input1 > input2 ?
 * input1 : input2 (TFLite Micro's comparisons: a NaN in either gives input2). */
int32_t opbridge_minimum_f32(const opbridge_broadcast_4d *params, const float *input1, const float *input2,
                             float *output);
int32_t opbridge_maximum_f32(const opbridge_broadcast_4d *params, const float *input1, const float *input2,
                             float *output);

/* Unary operators on `size` (>= 0) elements; input and output may be the same array.
 * RELU: x < 0 ? 0 : x. RELU6: x > 6 ? 6 : (x < 0 ? 0 : x). (NaN passes through.)
 * LOGISTIC: 1 / (1 + expf(-x)); x > 16.619047 gives 1 and x < -9 gives expf(x)
 * (TFLite's cut-offs). TANH: tanhf(x). */
int32_t opbridge_relu_f32(int32_t size, const float *input, float *output);
int32_t opbridge_relu6_f32(int32_t size, const float *input, float *output);
int32_t opbridge_logistic_f32(int32_t size, const float *input, float *output);
int32_t opbridge_tanh_f32(int32_t size, const float *input, float *output);

typedef struct {
  float activation_min; /* the fused activation's clamp (see above) */
  float activation_max;
  int32_t stride_height; /* >= 1 */
  int32_t stride_width;
  int32_t filter_height; /* >= 1 */
  int32_t filter_width;
  int32_t padding_height; /* rows of padding before the input */
  int32_t padding_width;
  int32_t input_shape[4];  /* NHWC, sizes >= 1 */
  int32_t output_shape[4]; /* NHWC: the same batches and channels */
} opbridge_pool_f32_params;

/* AVERAGE_POOL_2D: the window's positions inside the input (padding is
 * neither read nor counted), added in order (rows, then columns) to 0,
 * divided by their count, clamped. A window with no position gives
 * OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_average_pool_2d_f32(const opbridge_pool_f32_params *params, const float *input, float *output);
/* MAX_POOL_2D: the largest of the window's positions inside the input (in
 * order from -FLT_MAX, m = m < x ? x : m), clamped. */
int32_t opbridge_max_pool_2d_f32(const opbridge_pool_f32_params *params, const float *input, float *output);

typedef struct {
  int32_t input_shape[4]; /* left-padded with 1s; sizes >= 1 */
  int32_t reduce[4];      /* 1 for each reduced dimension, else 0 */
  int32_t output_size;    /* the product of the kept sizes */
  int32_t count;          /* the product of the reduced sizes (elements averaged into each output) */
} opbridge_mean_f32_params;

/* MEAN: each output is 0 plus its inputs added in row-major order, divided
 * by (float)count. Accumulates in `output` (no scratch); input and output
 * must not overlap. */
int32_t opbridge_mean_f32(const opbridge_mean_f32_params *params, const float *input, float *output);

typedef struct {
  int32_t rows;  /* >= 0 */
  int32_t depth; /* the last axis, >= 1 */
  float beta;
} opbridge_softmax_f32_params;

/* SOFTMAX over each row: m = the row's maximum (from -FLT_MAX), e_c =
 * expf((x_c - m) * beta), sum = 0 + e_0 + e_1 + ... in order, output e_c / sum. */
int32_t opbridge_softmax_f32(const opbridge_softmax_f32_params *params, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_KERNELS_F32_H_ */
