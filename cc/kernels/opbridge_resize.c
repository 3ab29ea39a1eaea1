/* SPDX-License-Identifier: Apache-2.0 */
/* RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR: the source positions follow
 * TFLite's arithmetic step by step (float32 products and sums in its order,
 * no libm: floor, ceil and round of small values through int32 casts). */
#include "cc/kernels/opbridge_resize.h"

#include <stddef.h>
#include <string.h>

static int32_t opbridge_resize_check(const opbridge_resize_params *params, const void *input, const void *output) {
  if (params == NULL || input == NULL || output == NULL || params->batch < 0 || params->input_height < 1 ||
      params->input_width < 1 || params->depth < 0 || params->output_height < 1 || params->output_width < 1) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return OPBRIDGE_STATUS_OK;
}

/* in / out as float32, or (in - 1) / (out - 1) for aligned corners. */
static float opbridge_resize_scale(int32_t input_size, int32_t output_size, int32_t align_corners) {
  if (align_corners && output_size > 1) {
    return (float)(input_size - 1) / (float)(output_size - 1);
  }
  return (float)input_size / (float)output_size;
}

/* floor and ceil of a float32 of magnitude below 2^31. */
static int32_t opbridge_resize_floor(float value) {
  int32_t whole = (int32_t)value; /* towards zero */
  if ((float)whole > value) {
    whole -= 1;
  }
  return whole;
}

static int32_t opbridge_resize_ceil(float value) {
  int32_t whole = (int32_t)value;
  if ((float)whole < value) {
    whole += 1;
  }
  return whole;
}

/* TFLite's GetNearestNeighbor: floor((index + offset) * scale), rounded half
 * away from zero instead with align_corners, capped at input_size - 1. The
 * product is >= 0, so the cast is the floor and the fraction is exact. */
static int32_t opbridge_nearest_index(int32_t index, float scale, int32_t input_size, int32_t align_corners,
                                      int32_t half_pixel_centers) {
  const float offset = half_pixel_centers ? 0.5f : 0.0f;
  const float scaled = ((float)index + offset) * scale;
  int32_t nearest = (int32_t)scaled;
  if (align_corners && scaled - (float)nearest >= 0.5f) {
    nearest += 1;
  }
  if (nearest > input_size - 1) {
    nearest = input_size - 1;
  }
  return nearest < 0 ? 0 : nearest;
}

int32_t opbridge_resize_nearest_neighbor(const opbridge_resize_params *params, const void *input, void *output) {
  const int32_t status = opbridge_resize_check(params, input, output);
  if (status != OPBRIDGE_STATUS_OK || params->element_size < 1) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const float height_scale = opbridge_resize_scale(params->input_height, params->output_height, params->align_corners);
  const float width_scale = opbridge_resize_scale(params->input_width, params->output_width, params->align_corners);
  const size_t pixel = (size_t)params->depth * (size_t)params->element_size; /* bytes */
  const size_t row = (size_t)params->input_width * pixel;
  const uint8_t *source = (const uint8_t *)input;
  uint8_t *target = (uint8_t *)output;
  for (int32_t b = 0; b < params->batch; ++b) {
    const uint8_t *image = source + (size_t)b * (size_t)params->input_height * row;
    for (int32_t y = 0; y < params->output_height; ++y) {
      const int32_t in_y = opbridge_nearest_index(y, height_scale, params->input_height, params->align_corners,
                                                  params->half_pixel_centers);
      const uint8_t *input_row = image + (size_t)in_y * row;
      for (int32_t x = 0; x < params->output_width; ++x) {
        const int32_t in_x = opbridge_nearest_index(x, width_scale, params->input_width, params->align_corners,
                                                    params->half_pixel_centers);
        memcpy(target, input_row + (size_t)in_x * pixel, pixel);
        target += pixel;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* TFLite's ComputeInterpolationValues: the source position and its two
 * neighbouring indices, clamped to the input. */
static float opbridge_bilinear_position(int32_t index, float scale, int32_t half_pixel_centers, int32_t input_size,
                                        int32_t *lower, int32_t *upper) {
  const float position = half_pixel_centers ? ((float)index + 0.5f) * scale - 0.5f : (float)index * scale;
  const int32_t below = opbridge_resize_floor(position);
  const int32_t above = opbridge_resize_ceil(position);
  *lower = below < 0 ? 0 : below;
  *upper = above > input_size - 1 ? input_size - 1 : above;
  return position;
}

int32_t opbridge_resize_bilinear_f32(const opbridge_resize_params *params, const float *input, float *output) {
  const int32_t status = opbridge_resize_check(params, input, output);
  if (status != OPBRIDGE_STATUS_OK || (params->align_corners && params->half_pixel_centers)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const float height_scale = opbridge_resize_scale(params->input_height, params->output_height, params->align_corners);
  const float width_scale = opbridge_resize_scale(params->input_width, params->output_width, params->align_corners);
  const size_t depth = (size_t)params->depth;
  const size_t row = (size_t)params->input_width * depth;
  float *target = output;
  for (int32_t b = 0; b < params->batch; ++b) {
    const float *image = input + (size_t)b * (size_t)params->input_height * row;
    for (int32_t y = 0; y < params->output_height; ++y) {
      int32_t y0 = 0;
      int32_t y1 = 0;
      const float in_y =
          opbridge_bilinear_position(y, height_scale, params->half_pixel_centers, params->input_height, &y0, &y1);
      const float dy = in_y - (float)y0;
      const float ky = 1.0f - dy;
      for (int32_t x = 0; x < params->output_width; ++x) {
        int32_t x0 = 0;
        int32_t x1 = 0;
        const float in_x =
            opbridge_bilinear_position(x, width_scale, params->half_pixel_centers, params->input_width, &x0, &x1);
        const float dx = in_x - (float)x0;
        const float kx = 1.0f - dx;
        const float *p00 = image + (size_t)y0 * row + (size_t)x0 * depth;
        const float *p10 = image + (size_t)y1 * row + (size_t)x0 * depth;
        const float *p01 = image + (size_t)y0 * row + (size_t)x1 * depth;
        const float *p11 = image + (size_t)y1 * row + (size_t)x1 * depth;
        for (size_t c = 0; c < depth; ++c) {
          /* TFLite's order, ending with its rounding offset 0.0f (-0.0 becomes +0.0). */
          target[c] = p00[c] * ky * kx + p10[c] * dy * kx + p01[c] * ky * dx + p11[c] * dy * dx + 0.0f;
        }
        target += depth;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* 1.0 in TFLite's fixed-point positions. */
#define OPBRIDGE_RESIZE_ONE 1024
/* Sizes up to 2^20 keep the positions (about size << 10) within int32. */
#define OPBRIDGE_RESIZE_MAX_SIZE (1 << 20)

/* (in << 10) / out rounded half up, or (in - 1) / (out - 1) aligned. */
static int32_t opbridge_resize_scale_10(int32_t input_size, int32_t output_size, int32_t align_corners) {
  if (align_corners && output_size > 1) {
    return (OPBRIDGE_RESIZE_ONE * (input_size - 1) + (output_size - 1) / 2) / (output_size - 1);
  }
  return (OPBRIDGE_RESIZE_ONE * input_size + output_size / 2) / output_size;
}

/* TFLite's ComputeInterpolationValuesInteger: the position in 1/1024ths and
 * its neighbouring indices (the lower one not capped, as in TFLite). */
static int32_t opbridge_bilinear_position_10(int32_t index, int32_t scale_10, int32_t half_pixel_centers,
                                             int32_t input_size, int32_t *lower, int32_t *upper) {
  const int32_t position =
      half_pixel_centers ? index * scale_10 + scale_10 / 2 - OPBRIDGE_RESIZE_ONE / 2 : index * scale_10;
  const int32_t below = position / OPBRIDGE_RESIZE_ONE; /* towards zero, as in C++ */
  const int32_t above = (position + OPBRIDGE_RESIZE_ONE - 1) / OPBRIDGE_RESIZE_ONE;
  *lower = below < 0 ? 0 : below;
  *upper = above > input_size - 1 ? input_size - 1 : above;
  return position;
}

int32_t opbridge_resize_bilinear_s8(const opbridge_resize_params *params, const int8_t *input, int8_t *output) {
  const int32_t status = opbridge_resize_check(params, input, output);
  if (status != OPBRIDGE_STATUS_OK || (params->align_corners && params->half_pixel_centers) ||
      params->input_height > OPBRIDGE_RESIZE_MAX_SIZE || params->input_width > OPBRIDGE_RESIZE_MAX_SIZE ||
      params->output_height > OPBRIDGE_RESIZE_MAX_SIZE || params->output_width > OPBRIDGE_RESIZE_MAX_SIZE) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t align = params->align_corners;
  const int32_t height_scale = opbridge_resize_scale_10(params->input_height, params->output_height, align);
  const int32_t width_scale = opbridge_resize_scale_10(params->input_width, params->output_width, align);
  int32_t last_lower = 0;
  int32_t last_upper = 0;
  /* The lower indices grow with the output index: the last ones must be inside the input. */
  (void)opbridge_bilinear_position_10(params->output_height - 1, height_scale, params->half_pixel_centers,
                                      params->input_height, &last_lower, &last_upper);
  if (last_lower > params->input_height - 1) {
    return OPBRIDGE_STATUS_UNSUPPORTED;
  }
  (void)opbridge_bilinear_position_10(params->output_width - 1, width_scale, params->half_pixel_centers,
                                      params->input_width, &last_lower, &last_upper);
  if (last_lower > params->input_width - 1) {
    return OPBRIDGE_STATUS_UNSUPPORTED;
  }
  const size_t depth = (size_t)params->depth;
  const size_t row = (size_t)params->input_width * depth;
  int8_t *target = output;
  for (int32_t b = 0; b < params->batch; ++b) {
    const int8_t *image = input + (size_t)b * (size_t)params->input_height * row;
    for (int32_t y = 0; y < params->output_height; ++y) {
      int32_t y0 = 0;
      int32_t y1 = 0;
      const int32_t in_y =
          opbridge_bilinear_position_10(y, height_scale, params->half_pixel_centers, params->input_height, &y0, &y1);
      const int32_t dy = in_y - OPBRIDGE_RESIZE_ONE * y0; /* in [-512, 1024) */
      const int32_t ky = OPBRIDGE_RESIZE_ONE - dy;       /* in (0, 1536] */
      for (int32_t x = 0; x < params->output_width; ++x) {
        int32_t x0 = 0;
        int32_t x1 = 0;
        const int32_t in_x =
            opbridge_bilinear_position_10(x, width_scale, params->half_pixel_centers, params->input_width, &x0, &x1);
        const int32_t dx = in_x - OPBRIDGE_RESIZE_ONE * x0;
        const int32_t kx = OPBRIDGE_RESIZE_ONE - dx;
        const int8_t *p00 = image + (size_t)y0 * row + (size_t)x0 * depth;
        const int8_t *p10 = image + (size_t)y1 * row + (size_t)x0 * depth;
        const int8_t *p01 = image + (size_t)y0 * row + (size_t)x1 * depth;
        const int8_t *p11 = image + (size_t)y1 * row + (size_t)x1 * depth;
        for (size_t c = 0; c < depth; ++c) {
          /* |value| <= 128 and |weight| <= 1536: each product below 2^29, the sum within int32. */
          const int32_t sum_20 = (int32_t)p00[c] * ky * kx + (int32_t)p10[c] * dy * kx +
                                 (int32_t)p01[c] * ky * dx + (int32_t)p11[c] * dy * dx;
          const int32_t half = sum_20 > 0 ? (1 << 19) : -(1 << 19);
          target[c] = (int8_t)((sum_20 + half) / (1 << 20));
        }
        target += depth;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
