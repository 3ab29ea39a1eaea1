/* SPDX-License-Identifier: Apache-2.0 */
/* TRANSPOSE_CONV on float32: TFLite Micro's float reference TransposeConv, bit
 * for bit (see python/opbridge/ops/transpose_conv/reference.py). */
#ifndef OPBRIDGE_TRANSPOSE_CONV_F32_H_
#define OPBRIDGE_TRANSPOSE_CONV_F32_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Input element (b, y, x, c) adds input * filter[o][fy][fx][c] to output
 * (b, y * stride_height - padding_height + fy, x * stride_width - padding_width
 * + fx, o) when that lies inside the output. Each output is clamp(sum + bias),
 * the sum starting at 0.0f and taken over input row, input column, then input
 * channel, in increasing order: the order in which TFLite Micro's scatter adds
 * into a zeroed output, so the results are equal bit for bit. The clamp is
 * min(max(x, activation_min), activation_max) (a NaN passes through). */
typedef struct {
  float activation_min;
  float activation_max;
  int32_t stride_height;   /* >= 1 */
  int32_t stride_width;    /* >= 1 */
  int32_t padding_height;  /* output rows cut before the first, >= 0 (TFLite's ComputePaddingHeightWidth) */
  int32_t padding_width;   /* output columns cut before the first, >= 0 */
  int32_t input_shape[4];  /* [batches, height, width, channels] */
  int32_t filter_shape[4]; /* [out_channels, filter_height, filter_width, channels] (OHWI) */
  int32_t output_shape[4]; /* [batches, out_height, out_width, out_channels] */
} opbridge_transpose_conv_f32_params;

/* bias may be NULL (no bias); it is [out_channels] otherwise. Computes each
 * output once (a gather in the scatter's order): no scratch, no zero fill. */
int32_t opbridge_transpose_conv_f32(const opbridge_transpose_conv_f32_params *params, const float *input,
                                    const float *filter, const float *bias, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_TRANSPOSE_CONV_F32_H_ */
