/* SPDX-License-Identifier: Apache-2.0 */
/* The folded int8 forms (opbridge_kernels_folded_s8.h), portable C99 variant: the reference
 * for the instruction-set variants, and what x86_64, aarch64 and the Cortex-M4 run. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_PORTABLE

#include "cc/kernels/opbridge_folded_internal.h"

/* sum(input * weight) over the window's taps inside the input, minus input_offset times the
 * weights of the taps outside it: with the folded bias, TFLite Micro's accumulator. */
static int32_t opbridge_folded_window(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                      const int8_t *taps, int32_t y_origin, int32_t x_origin, int32_t channel_step,
                                      int32_t input_channel) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  /* Conv reads every input channel (channel_step 1, input_channel 0); depthwise one. */
  const int32_t depth = channel_step == 1 ? in->channels : 1;
  int32_t acc = 0;
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    for (int32_t fx = 0; fx < fl->width; ++fx) {
      const int32_t ix = x_origin + fx * params->dilation_width;
      const int8_t *weights = taps + (fy * fl->width + fx) * fl->channels;
      if (iy >= 0 && iy < in->height && ix >= 0 && ix < in->width) {
        const int8_t *pixel = input + (iy * in->width + ix) * in->channels + input_channel;
        for (int32_t d = 0; d < depth; ++d) {
          acc += (int32_t)pixel[d] * (int32_t)weights[d * channel_step];
        }
      } else {
        for (int32_t d = 0; d < depth; ++d) {
          acc -= params->input_offset * (int32_t)weights[d * channel_step];
        }
      }
    }
  }
  return acc;
}

int32_t opbridge_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                   const int8_t *filter, int8_t *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL ||
      !opbridge_folded_conv_params_valid(params, params->filter.batches) ||
      params->filter.channels != params->input.channels) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t filter_size = fl->height * fl->width * fl->channels;
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * in->width * in->channels;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        for (int32_t oc = 0; oc < out->channels; ++oc) {
          const int32_t acc = params->requantization.folded_bias[oc] +
                              opbridge_folded_window(params, image, filter + oc * filter_size, y_origin, x_origin,
                                                     1, 0);
          *output++ = opbridge_folded_output(acc, &params->requantization, oc);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* The shape-specialised entry points check their precondition, as the Helium variant's do, then
 * share the general loop (the portable variant has one). */
int32_t opbridge_conv_2d_s8_folded_patch(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                         const int8_t *filter, int8_t *scratch, int8_t *output) {
  if (params == NULL || scratch == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t row_taps = params->dilation_width == 1 ? params->filter.width : 1;
  if (row_taps * params->input.channels >= 16) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded(params, input, filter, output);
}

int32_t opbridge_conv_2d_s8_folded_pointwise(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  if (params == NULL || params->filter.height != 1 || params->filter.width != 1 ||
      params->input.channels % 16 != 0 || params->padding_height != 0 || params->padding_width != 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded(params, input, filter, output);
}

int32_t opbridge_depthwise_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  if (params != NULL && params->input.channels != params->output.channels) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT; /* opbridge_depthwise_conv_2d_s8_folded_multiplier */
  }
  return opbridge_depthwise_conv_2d_s8_folded_multiplier(params, input, filter, output);
}

int32_t opbridge_depthwise_conv_2d_s8_folded_multiplier(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL ||
      !opbridge_folded_conv_params_valid(params, params->filter.channels) ||
      params->output.channels % params->input.channels != 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims *in = &params->input;
  const opbridge_dims *out = &params->output;
  const int32_t depth_multiplier = out->channels / in->channels;
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * in->width * in->channels;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        for (int32_t c = 0; c < out->channels; ++c) {
          const int32_t acc = params->requantization.folded_bias[c] +
                              opbridge_folded_window(params, image, filter + c, y_origin, x_origin, 0,
                                                     c / depth_multiplier);
          *output++ = opbridge_folded_output(acc, &params->requantization, c);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_fully_connected_s8_folded(const opbridge_fully_connected_s8_folded_params *params,
                                           const int8_t *input, const int8_t *filter, int8_t *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL || params->batches <= 0 ||
      params->input_depth <= 0 || params->output_depth <= 0 ||
      !opbridge_folded_requantization_valid(&params->requantization)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    const int8_t *row = input + batch * params->input_depth;
    for (int32_t unit = 0; unit < params->output_depth; ++unit) {
      const int8_t *weights = filter + unit * params->input_depth;
      int32_t acc = params->requantization.folded_bias[unit];
      for (int32_t d = 0; d < params->input_depth; ++d) {
        acc += (int32_t)row[d] * (int32_t)weights[d];
      }
      *output++ = opbridge_folded_output(acc, &params->requantization, unit);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_add_s8_table(const opbridge_add_s8_table_params *params, const int8_t *input1,
                              const int8_t *input2, int8_t *output) {
  if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||
      !opbridge_add_table_params_valid(params)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *table1 = params->input1_table + 128;
  const int32_t *table2 = params->input2_table + 128;
  for (int32_t i = 0; i < params->count; ++i) {
    const int32_t sum = table1[input1[i]] + table2[input2[i]];
    int32_t value = opbridge_multiply_by_quantized_multiplier(sum, params->output_multiplier, params->output_shift);
    value += params->output_offset;
    value = value < params->activation_min ? params->activation_min : value;
    value = value > params->activation_max ? params->activation_max : value;
    output[i] = (int8_t)value;
  }
  return OPBRIDGE_STATUS_OK;
}

#endif /* OPBRIDGE_KERNELS_PORTABLE */
