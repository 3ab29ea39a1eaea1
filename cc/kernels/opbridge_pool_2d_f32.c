/* SPDX-License-Identifier: Apache-2.0 */
/* float32 AVERAGE_POOL_2D and MAX_POOL_2D (TFLite Micro's float reference
 * kernels): each output's window is clipped to the input (padding is never
 * read or counted) and visited row by row, so the sums round as
 * python/opbridge/ops/average_pool_2d/reference.py rounds them. */
#include <float.h>
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_f32.h"

typedef enum { OPBRIDGE_POOL_F32_AVERAGE, OPBRIDGE_POOL_F32_MAX } opbridge_pool_f32_kind;

static int32_t opbridge_pool_f32_valid(const opbridge_pool_f32_params *params) {
  const int32_t *in = params->input_shape;
  const int32_t *out = params->output_shape;
  for (int32_t axis = 0; axis < 4; ++axis) {
    if (in[axis] <= 0 || out[axis] <= 0) {
      return 0;
    }
  }
  return in[0] == out[0] && in[3] == out[3] && params->stride_height > 0 && params->stride_width > 0 &&
         params->filter_height > 0 && params->filter_width > 0 &&
         params->activation_min <= params->activation_max;
}

static int32_t opbridge_pool_2d_f32(const opbridge_pool_f32_params *params, const float *input, float *output,
                                    opbridge_pool_f32_kind kind) {
  if (params == NULL || input == NULL || output == NULL || !opbridge_pool_f32_valid(params)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t in_height = params->input_shape[1];
  const int32_t in_width = params->input_shape[2];
  const int32_t channels = params->input_shape[3];
  const int32_t out_height = params->output_shape[1];
  const int32_t out_width = params->output_shape[2];
  const float low = params->activation_min;
  const float high = params->activation_max;
  for (int32_t b = 0; b < params->output_shape[0]; ++b) {
    for (int32_t oy = 0; oy < out_height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      const int32_t y_start = y_origin < 0 ? 0 : y_origin;
      const int32_t y_limit = y_origin + params->filter_height;
      const int32_t y_end = y_limit < in_height ? y_limit : in_height;
      for (int32_t ox = 0; ox < out_width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        const int32_t x_start = x_origin < 0 ? 0 : x_origin;
        const int32_t x_limit = x_origin + params->filter_width;
        const int32_t x_end = x_limit < in_width ? x_limit : in_width;
        if (y_end <= y_start || x_end <= x_start) {
          return OPBRIDGE_STATUS_INVALID_ARGUMENT; /* a window outside the input */
        }
        const float count = (float)((y_end - y_start) * (x_end - x_start));
        for (int32_t c = 0; c < channels; ++c) {
          float total = 0.0f;
          float maximum = -FLT_MAX;
          for (int32_t y = y_start; y < y_end; ++y) {
            for (int32_t x = x_start; x < x_end; ++x) {
              const float value = input[((b * in_height + y) * in_width + x) * channels + c];
              total += value;
              maximum = maximum < value ? value : maximum;
            }
          }
          float result = kind == OPBRIDGE_POOL_F32_AVERAGE ? total / count : maximum;
          result = result < low ? low : result;
          result = high < result ? high : result;
          output[((b * out_height + oy) * out_width + ox) * channels + c] = result;
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_average_pool_2d_f32(const opbridge_pool_f32_params *params, const float *input, float *output) {
  return opbridge_pool_2d_f32(params, input, output, OPBRIDGE_POOL_F32_AVERAGE);
}

int32_t opbridge_max_pool_2d_f32(const opbridge_pool_f32_params *params, const float *input, float *output) {
  return opbridge_pool_2d_f32(params, input, output, OPBRIDGE_POOL_F32_MAX);
}
