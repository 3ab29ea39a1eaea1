/* SPDX-License-Identifier: Apache-2.0 */
/* CONV_2D and DEPTHWISE_CONV_2D on float32: TFLite Micro's float reference
 * kernels, accumulating in the order python/opbridge/ops/conv_2d/reference.py does. */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_f32.h"

static int32_t opbridge_conv_f32_shapes_valid(const opbridge_conv_f32_params *params, int32_t output_channels) {
  for (int32_t axis = 0; axis < 4; ++axis) {
    if (params->input_shape[axis] <= 0 || params->filter_shape[axis] <= 0 || params->output_shape[axis] <= 0) {
      return 0;
    }
  }
  return params->stride_height > 0 && params->stride_width > 0 && params->dilation_height > 0 &&
         params->dilation_width > 0 && params->padding_height >= 0 && params->padding_width >= 0 &&
         params->output_shape[0] == params->input_shape[0] && params->output_shape[3] == output_channels;
}

/* min(max(value, low), high), as TFLite's ActivationFunctionWithMinMax (a NaN stays NaN). */
static float opbridge_conv_f32_activation(float value, float low, float high) {
  const float raised = value < low ? low : value;
  return high < raised ? high : raised;
}

int32_t opbridge_conv_f32(const opbridge_conv_f32_params *params, const float *input, const float *filter,
                          const float *bias, float *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *in = params->input_shape;
  const int32_t *fl = params->filter_shape;
  const int32_t *out = params->output_shape;
  if (!opbridge_conv_f32_shapes_valid(params, fl[0])) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (fl[3] != in[3]) {
    return OPBRIDGE_STATUS_UNSUPPORTED; /* grouped convolution */
  }
  for (int32_t b = 0; b < out[0]; ++b) {
    for (int32_t oy = 0; oy < out[1]; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out[2]; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        float *result = output + ((b * out[1] + oy) * out[2] + ox) * out[3];
        for (int32_t oc = 0; oc < out[3]; ++oc) {
          float total = 0.0f;
          for (int32_t fy = 0; fy < fl[1]; ++fy) {
            const int32_t iy = y_origin + fy * params->dilation_height;
            if (iy < 0 || iy >= in[1]) {
              continue;
            }
            for (int32_t fx = 0; fx < fl[2]; ++fx) {
              const int32_t ix = x_origin + fx * params->dilation_width;
              if (ix < 0 || ix >= in[2]) {
                continue;
              }
              const float *pixel = input + ((b * in[1] + iy) * in[2] + ix) * in[3];
              const float *taps = filter + ((oc * fl[1] + fy) * fl[2] + fx) * fl[3];
              for (int32_t ic = 0; ic < in[3]; ++ic) {
                total += pixel[ic] * taps[ic];
              }
            }
          }
          if (bias != NULL) {
            total += bias[oc];
          }
          result[oc] = opbridge_conv_f32_activation(total, params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_depthwise_conv_f32(const opbridge_conv_f32_params *params, const float *input, const float *filter,
                                    const float *bias, float *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *in = params->input_shape;
  const int32_t *fl = params->filter_shape;
  const int32_t *out = params->output_shape;
  if (!opbridge_conv_f32_shapes_valid(params, fl[3]) || fl[0] != 1 || params->depth_multiplier <= 0 ||
      in[3] * params->depth_multiplier != out[3]) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t b = 0; b < out[0]; ++b) {
    for (int32_t oy = 0; oy < out[1]; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out[2]; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        float *result = output + ((b * out[1] + oy) * out[2] + ox) * out[3];
        for (int32_t oc = 0; oc < out[3]; ++oc) {
          const int32_t ic = oc / params->depth_multiplier;
          float total = 0.0f;
          for (int32_t fy = 0; fy < fl[1]; ++fy) {
            const int32_t iy = y_origin + fy * params->dilation_height;
            if (iy < 0 || iy >= in[1]) {
              continue;
            }
            for (int32_t fx = 0; fx < fl[2]; ++fx) {
              const int32_t ix = x_origin + fx * params->dilation_width;
              if (ix < 0 || ix >= in[2]) {
                continue;
              }
              total += input[((b * in[1] + iy) * in[2] + ix) * in[3] + ic] * filter[(fy * fl[2] + fx) * fl[3] + oc];
            }
          }
          if (bias != NULL) {
            total += bias[oc];
          }
          result[oc] = opbridge_conv_f32_activation(total, params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
