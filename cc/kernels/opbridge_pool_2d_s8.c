/* SPDX-License-Identifier: Apache-2.0 */
/* int8 AVERAGE_POOL_2D and MAX_POOL_2D: both visit each output's window,
 * clipped to the input (padding is never read or counted). */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"

typedef enum { OPBRIDGE_POOL_AVERAGE, OPBRIDGE_POOL_MAX } opbridge_pool_kind;

static int32_t opbridge_pool_2d_s8(const opbridge_pool_s8_params *params, const int8_t *input, int8_t *output,
                                   opbridge_pool_kind kind) {
  if (params == NULL || input == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims *in = &params->input;
  const opbridge_dims *out = &params->output;
  if (!opbridge_dims_valid(in) || !opbridge_dims_valid(out) || in->channels != out->channels ||
      in->batches != out->batches || params->stride_height <= 0 || params->stride_width <= 0 ||
      params->filter_height <= 0 || params->filter_width <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t b = 0; b < out->batches; ++b) {
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      const int32_t y_start = y_origin < 0 ? 0 : y_origin;
      const int32_t y_limit = y_origin + params->filter_height;
      const int32_t y_end = y_limit < in->height ? y_limit : in->height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        const int32_t x_start = x_origin < 0 ? 0 : x_origin;
        const int32_t x_limit = x_origin + params->filter_width;
        const int32_t x_end = x_limit < in->width ? x_limit : in->width;
        const int32_t count = (y_end - y_start) * (x_end - x_start);
        for (int32_t c = 0; c < out->channels; ++c) {
          int32_t sum = 0;
          int32_t maximum = -128;
          for (int32_t y = y_start; y < y_end; ++y) {
            for (int32_t x = x_start; x < x_end; ++x) {
              const int32_t value = input[((b * in->height + y) * in->width + x) * in->channels + c];
              sum += value;
              maximum = value > maximum ? value : maximum;
            }
          }
          int32_t result = maximum;
          if (kind == OPBRIDGE_POOL_AVERAGE) {
            /* Rounds half away from zero; C division truncates. */
            result = count == 0 ? 0 : (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count);
          }
          output[((b * out->height + oy) * out->width + ox) * out->channels + c] =
              opbridge_clamp_s8(result, params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}


int32_t opbridge_average_pool_2d_s8(const opbridge_pool_s8_params *params, const int8_t *input, int8_t *output) {
  return opbridge_pool_2d_s8(params, input, output, OPBRIDGE_POOL_AVERAGE);
}

int32_t opbridge_max_pool_2d_s8(const opbridge_pool_s8_params *params, const int8_t *input, int8_t *output) {
  return opbridge_pool_2d_s8(params, input, output, OPBRIDGE_POOL_MAX);
}
