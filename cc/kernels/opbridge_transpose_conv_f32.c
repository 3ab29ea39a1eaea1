/* SPDX-License-Identifier: Apache-2.0 */
/* TRANSPOSE_CONV on float32. TFLite Micro zeroes the output, then scatters
 * input * filter products into it, looping over input row, column and channel
 * (outermost first), then filter row, column and output channel. One output
 * element thus receives its products in increasing (input row, input column,
 * input channel) order; this kernel gathers them per output in that same order,
 * so every float32 addition is the same and the results equal TFLite Micro's
 * bit for bit, without a zeroed output or scratch. */
#include "cc/kernels/opbridge_transpose_conv_f32.h"

#include <stddef.h>

#include "cc/kernels/opbridge_status.h"

/* min(max(value, low), high), as TFLite's ActivationFunctionWithMinMax (a NaN stays NaN). */
static float opbridge_transpose_conv_f32_activation(float value, float low, float high) {
  const float raised = value < low ? low : value;
  return high < raised ? high : raised;
}

static int32_t opbridge_transpose_conv_f32_valid(const opbridge_transpose_conv_f32_params *params) {
  for (int32_t axis = 0; axis < 4; ++axis) {
    if (params->input_shape[axis] <= 0 || params->filter_shape[axis] <= 0 || params->output_shape[axis] <= 0) {
      return 0;
    }
  }
  return params->stride_height > 0 && params->stride_width > 0 && params->padding_height >= 0 &&
         params->padding_width >= 0 && params->output_shape[0] == params->input_shape[0] &&
         params->filter_shape[3] == params->input_shape[3] && params->output_shape[3] == params->filter_shape[0];
}

/* The input positions whose window covers output position `position` + `padding` along one axis: in
 * increasing order from *first to *last (empty when *first > *last); the filter tap of input i is
 * position + padding - i * stride. */
static void opbridge_transpose_conv_f32_span(int32_t position, int32_t padding, int32_t stride, int32_t filter_size,
                                             int32_t input_size, int32_t *first, int32_t *last) {
  const int32_t shifted = position + padding; /* >= 0 */
  const int32_t lowest = shifted - (filter_size - 1);
  *first = lowest <= 0 ? 0 : (lowest + stride - 1) / stride;
  *last = shifted / stride;
  if (*last > input_size - 1) {
    *last = input_size - 1;
  }
}

int32_t opbridge_transpose_conv_f32(const opbridge_transpose_conv_f32_params *params, const float *input,
                                    const float *filter, const float *bias, float *output) {
  if (params == NULL || input == NULL || filter == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (!opbridge_transpose_conv_f32_valid(params)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *in = params->input_shape;
  const int32_t *fl = params->filter_shape;
  const int32_t *out = params->output_shape;
  const int32_t channels = in[3];
  for (int32_t b = 0; b < out[0]; ++b) {
    for (int32_t oy = 0; oy < out[1]; ++oy) {
      int32_t first_y = 0;
      int32_t last_y = 0;
      opbridge_transpose_conv_f32_span(oy, params->padding_height, params->stride_height, fl[1], in[1], &first_y,
                                       &last_y);
      const int32_t shifted_y = oy + params->padding_height;
      for (int32_t ox = 0; ox < out[2]; ++ox) {
        int32_t first_x = 0;
        int32_t last_x = 0;
        opbridge_transpose_conv_f32_span(ox, params->padding_width, params->stride_width, fl[2], in[2], &first_x,
                                         &last_x);
        const int32_t shifted_x = ox + params->padding_width;
        float *result = output + ((b * out[1] + oy) * out[2] + ox) * out[3];
        for (int32_t oc = 0; oc < out[3]; ++oc) {
          float total = 0.0f;
          for (int32_t iy = first_y; iy <= last_y; ++iy) {
            const int32_t fy = shifted_y - iy * params->stride_height;
            for (int32_t ix = first_x; ix <= last_x; ++ix) {
              const int32_t fx = shifted_x - ix * params->stride_width;
              const float *pixel = input + ((b * in[1] + iy) * in[2] + ix) * channels;
              const float *taps = filter + ((oc * fl[1] + fy) * fl[2] + fx) * channels;
              for (int32_t ic = 0; ic < channels; ++ic) {
                total += pixel[ic] * taps[ic];
              }
            }
          }
          if (bias != NULL) {
            total += bias[oc];
          }
          result[oc] = opbridge_transpose_conv_f32_activation(total, params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
