/* SPDX-License-Identifier: Apache-2.0 */
/* int8 AVERAGE_POOL_2D and MAX_POOL_2D: both visit each output's window,
 * clipped to the input (padding is never read or counted). */
#include <stddef.h>

#include "cc/kernels/opbridge_kernel_variant.h"
#include "cc/kernels/opbridge_kernels_internal.h"

#if OPBRIDGE_KERNELS_HELIUM
#include <arm_mve.h>
#elif OPBRIDGE_KERNELS_DSP
#include <arm_acle.h>
#include <string.h>
#endif


typedef enum { OPBRIDGE_POOL_AVERAGE, OPBRIDGE_POOL_MAX } opbridge_pool_kind;

/* The window's average as TFLite Micro rounds it: half away from zero (C division truncates). */
static inline int32_t opbridge_pool_average(int32_t sum, int32_t count) {
  return count == 0 ? 0 : (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count);
}

#if OPBRIDGE_KERNELS_HELIUM
/* One output position, 16 channels a step (a predicated last one): the window's maximum with
 * VMAX.S8, or its sum in four int32 vectors (widening loads) divided per channel. */
static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_pool_position_helium(const opbridge_pool_s8_params *params, const int8_t *image,
                                          int32_t y_start, int32_t y_end, int32_t x_start, int32_t x_end,
                                          int8_t *destination, opbridge_pool_kind kind) {
  const int32_t channels = params->input.channels;
  const int32_t count = (y_end - y_start) * (x_end - x_start);
  const int32_t row_skip = (params->input.width - (x_end - x_start)) * channels;
  for (int32_t c = 0; c < channels; c += 16) {
    const uint32_t lanes = (uint32_t)(channels - c < 16 ? channels - c : 16);
    const int8_t *x = image + (y_start * params->input.width + x_start) * channels + c;
    if (kind == OPBRIDGE_POOL_MAX) {
      const mve_pred16_t p = vctp8q(lanes);
      int8x16_t maximum = vdupq_n_s8(-128);
      for (int32_t y = y_start; y < y_end; ++y, x += row_skip) {
        for (int32_t i = x_start; i < x_end; ++i, x += channels) {
          maximum = vmaxq_s8(maximum, vldrbq_z_s8(x, p));
        }
      }
      maximum = vmaxq_s8(maximum, vdupq_n_s8((int8_t)params->activation_min));
      maximum = vminq_s8(maximum, vdupq_n_s8((int8_t)params->activation_max));
      vstrbq_p_s8(destination + c, maximum, p);
      continue;
    }
    const mve_pred16_t p0 = vctp32q(lanes), p1 = vctp32q(lanes > 4 ? lanes - 4 : 0);
    const mve_pred16_t p2 = vctp32q(lanes > 8 ? lanes - 8 : 0), p3 = vctp32q(lanes > 12 ? lanes - 12 : 0);
    int32x4_t sum0 = vdupq_n_s32(0), sum1 = sum0, sum2 = sum0, sum3 = sum0;
    for (int32_t y = y_start; y < y_end; ++y, x += row_skip) {
      for (int32_t i = x_start; i < x_end; ++i, x += channels) {
        sum0 = vaddq_s32(sum0, vldrbq_z_s32(x, p0));
        sum1 = vaddq_s32(sum1, vldrbq_z_s32(x + 4, p1));
        sum2 = vaddq_s32(sum2, vldrbq_z_s32(x + 8, p2));
        sum3 = vaddq_s32(sum3, vldrbq_z_s32(x + 12, p3));
      }
    }
    int32_t values[16];
    vst1q_s32(values, sum0);
    vst1q_s32(values + 4, sum1);
    vst1q_s32(values + 8, sum2);
    vst1q_s32(values + 12, sum3);
    for (uint32_t k = 0; k < lanes; ++k) {
      destination[c + (int32_t)k] =
          opbridge_clamp_s8(opbridge_pool_average(values[k], count), params->activation_min, params->activation_max);
    }
  }
}
#endif

#if OPBRIDGE_KERNELS_DSP
/* Pixels whose int8 values an int16 lane sums without overflow: 256 x -128 = -32768. */
#define OPBRIDGE_POOL_DSP_RUN 256

/* One output position's average, four channels a step: each pixel's 4 bytes added to two int16
 * pairs (SXTAB16 of the even bytes and, rotated, of the odd ones), which go into int32 sums every
 * OPBRIDGE_POOL_DSP_RUN pixels; the channels past the last 4 one at a time. */
static void opbridge_pool_average_position_dsp(const opbridge_pool_s8_params *params, const int8_t *image,
                                               int32_t y_start, int32_t y_end, int32_t x_start, int32_t x_end,
                                               int8_t *destination) {
  const int32_t channels = params->input.channels;
  const int32_t count = (y_end - y_start) * (x_end - x_start);
  int32_t c = 0;
  for (; c + 4 <= channels; c += 4) {
    int32_t sums[4] = {0, 0, 0, 0};
    int16x2_t even = 0, odd = 0;
    int32_t run = 0;
    for (int32_t y = y_start; y < y_end; ++y) {
      const int8_t *x = image + (y * params->input.width + x_start) * channels + c;
      for (int32_t i = x_start; i < x_end; ++i, x += channels) {
        uint32_t word;
        memcpy(&word, x, sizeof(word));
        even = __sxtab16(even, word);
        __asm__("sxtab16 %0, %0, %1, ror #8" : "+r"(odd) : "r"(word));
        if (++run == OPBRIDGE_POOL_DSP_RUN || (y == y_end - 1 && i == x_end - 1)) {
          sums[0] += (int16_t)(even & 0xFFFF);
          sums[1] += (int16_t)(odd & 0xFFFF);
          sums[2] += even >> 16;
          sums[3] += odd >> 16;
          even = odd = 0;
          run = 0;
        }
      }
    }
    for (int32_t k = 0; k < 4; ++k) {
      destination[c + k] =
          opbridge_clamp_s8(opbridge_pool_average(sums[k], count), params->activation_min, params->activation_max);
    }
  }
  for (; c < channels; ++c) {
    int32_t sum = 0;
    for (int32_t y = y_start; y < y_end; ++y) {
      for (int32_t i = x_start; i < x_end; ++i) {
        sum += image[(y * params->input.width + i) * channels + c];
      }
    }
    destination[c] =
        opbridge_clamp_s8(opbridge_pool_average(sum, count), params->activation_min, params->activation_max);
  }
}
#endif

static OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_pool_2d_s8(const opbridge_pool_s8_params *params, const int8_t *input, int8_t *output,
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
#if OPBRIDGE_KERNELS_HELIUM
        opbridge_pool_position_helium(params, input + b * in->height * in->width * in->channels, y_start, y_end,
                                      x_start, x_end,
                                      output + ((b * out->height + oy) * out->width + ox) * out->channels, kind);
        (void)count;
#else
#if OPBRIDGE_KERNELS_DSP
        if (kind == OPBRIDGE_POOL_AVERAGE) {
          opbridge_pool_average_position_dsp(params, input + b * in->height * in->width * in->channels, y_start, y_end,
                                             x_start, x_end,
                                             output + ((b * out->height + oy) * out->width + ox) * out->channels);
          continue;
        }
#endif
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
            result = opbridge_pool_average(sum, count);
          }
          output[((b * out->height + oy) * out->width + ox) * out->channels + c] =
              opbridge_clamp_s8(result, params->activation_min, params->activation_max);
        }
#endif
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
