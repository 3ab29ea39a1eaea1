/* SPDX-License-Identifier: Apache-2.0 */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"

static int32_t opbridge_check_conv_params(const opbridge_conv_s8_params *params, int32_t output_channels) {
  if (!opbridge_dims_valid(&params->input) || !opbridge_dims_valid(&params->filter) ||
      !opbridge_dims_valid(&params->output) || params->stride_height <= 0 || params->stride_width <= 0 ||
      params->dilation_height <= 0 || params->dilation_width <= 0 || params->padding_height < 0 ||
      params->padding_width < 0 || params->output.batches != params->input.batches ||
      params->output.channels != output_channels ||
      !opbridge_requantization_valid(&params->requantization, output_channels)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return OPBRIDGE_STATUS_OK;
}


int32_t opbridge_conv_2d_s8(const opbridge_conv_s8_params *params, const int8_t *input, const int8_t *filter,
                            const int32_t *bias, int8_t *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  int32_t status = opbridge_check_conv_params(params, fl->batches);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  if (fl->channels != in->channels) {
    return OPBRIDGE_STATUS_UNSUPPORTED; /* grouped convolution */
  }
  for (int32_t b = 0; b < out->batches; ++b) {
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        for (int32_t oc = 0; oc < out->channels; ++oc) {
          int32_t acc = 0;
          for (int32_t fy = 0; fy < fl->height; ++fy) {
            const int32_t iy = y_origin + fy * params->dilation_height;
            if (iy < 0 || iy >= in->height) {
              continue;
            }
            for (int32_t fx = 0; fx < fl->width; ++fx) {
              const int32_t ix = x_origin + fx * params->dilation_width;
              if (ix < 0 || ix >= in->width) {
                continue;
              }
              const int8_t *pixel = input + ((b * in->height + iy) * in->width + ix) * in->channels;
              const int8_t *taps = filter + ((oc * fl->height + fy) * fl->width + fx) * fl->channels;
              for (int32_t ic = 0; ic < in->channels; ++ic) {
                acc += ((int32_t)pixel[ic] + params->input_offset) * (int32_t)taps[ic];
              }
            }
          }
          if (bias != NULL) {
            acc += bias[oc];
          }
          output[((b * out->height + oy) * out->width + ox) * out->channels + oc] =
              opbridge_requantize_channel_s8(acc, &params->requantization, oc, params->output_offset,
                                     params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}


int32_t opbridge_depthwise_conv_2d_s8(const opbridge_conv_s8_params *params, const int8_t *input,
                                      const int8_t *filter, const int32_t *bias, int8_t *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  int32_t status = opbridge_check_conv_params(params, fl->channels);
  if (status != OPBRIDGE_STATUS_OK) {
    return status;
  }
  if (params->depth_multiplier <= 0 || in->channels * params->depth_multiplier != out->channels) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t b = 0; b < out->batches; ++b) {
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        for (int32_t oc = 0; oc < out->channels; ++oc) {
          const int32_t ic = oc / params->depth_multiplier;
          int32_t acc = 0;
          for (int32_t fy = 0; fy < fl->height; ++fy) {
            const int32_t iy = y_origin + fy * params->dilation_height;
            if (iy < 0 || iy >= in->height) {
              continue;
            }
            for (int32_t fx = 0; fx < fl->width; ++fx) {
              const int32_t ix = x_origin + fx * params->dilation_width;
              if (ix < 0 || ix >= in->width) {
                continue;
              }
              const int32_t value = input[((b * in->height + iy) * in->width + ix) * in->channels + ic];
              acc += (value + params->input_offset) * (int32_t)filter[(fy * fl->width + fx) * fl->channels + oc];
            }
          }
          if (bias != NULL) {
            acc += bias[oc];
          }
          output[((b * out->height + oy) * out->width + ox) * out->channels + oc] =
              opbridge_requantize_channel_s8(acc, &params->requantization, oc, params->output_offset,
                                     params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
