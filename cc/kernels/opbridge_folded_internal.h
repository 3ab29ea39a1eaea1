/* SPDX-License-Identifier: Apache-2.0 */
/* Checks and the scalar output stage shared by the folded forms' variants (not part of the API). */
#ifndef OPBRIDGE_FOLDED_INTERNAL_H_
#define OPBRIDGE_FOLDED_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernels_folded_s8.h"

static inline int32_t opbridge_folded_requantization_valid(const opbridge_folded_requantization *requantization) {
  return requantization->folded_bias != NULL && requantization->multipliers != NULL &&
         requantization->shifts != NULL && requantization->activation_min <= requantization->activation_max;
}

static inline int32_t opbridge_folded_conv_params_valid(const opbridge_conv_s8_folded_params *params,
                                                        int32_t filter_output_channels) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  return in->batches > 0 && in->height > 0 && in->width > 0 && in->channels > 0 && fl->batches > 0 &&
         fl->height > 0 && fl->width > 0 && fl->channels > 0 && out->batches == in->batches && out->height > 0 &&
         out->width > 0 && out->channels == filter_output_channels && params->stride_height > 0 &&
         params->stride_width > 0 && params->dilation_height > 0 && params->dilation_width > 0 &&
         params->padding_height >= 0 && params->padding_width >= 0 &&
         opbridge_folded_requantization_valid(&params->requantization);
}

/* A function written in assembly at file scope (the variants' hand-scheduled loops: every
 * register is theirs, at any optimization level), in Thumb-2, hidden from other modules. */
#define OPBRIDGE_ASM_FUNCTION_BEGIN(name)                                                                           \
  ".pushsection .text\n"                                                                                            \
  ".syntax unified\n"                                                                                               \
  ".thumb\n"                                                                                                        \
  ".p2align 2\n"                                                                                                    \
  ".global " #name "\n"                                                                                             \
  ".hidden " #name "\n"                                                                                             \
  ".type " #name ", %function\n"                                                                                    \
  ".thumb_func\n" #name ":\n"
#define OPBRIDGE_ASM_FUNCTION_END(name)                                                                             \
  ".size " #name ", . - " #name "\n"                                                                                \
  ".popsection\n"

/* One output: acc (folded bias included) rescaled, offset and clamped, as TFLite Micro does. */
static inline int8_t opbridge_folded_output(int32_t acc, const opbridge_folded_requantization *rq, int32_t channel) {
  const int32_t index = rq->per_channel ? channel : 0;
  int32_t value = opbridge_rescale(acc, rq->multipliers[index], rq->shifts[index]);
  value += rq->output_offset;
  value = value < rq->activation_min ? rq->activation_min : value;
  value = value > rq->activation_max ? rq->activation_max : value;
  return (int8_t)value;
}

/* Each entry point's arguments, checked alike by every variant (OPBRIDGE_STATUS_INVALID_ARGUMENT
 * unless 1). The shape-specialised entry points accept only their shapes. */

static inline int32_t opbridge_conv_call_valid(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                               const int8_t *filter, const int8_t *output) {
  return params != NULL && input != NULL && filter != NULL && output != NULL &&
         opbridge_folded_conv_params_valid(params, params->filter.batches) &&
         params->filter.channels == params->input.channels; /* not grouped */
}

/* opbridge_conv_2d_s8_folded_patch: window rows (taps, when dilated along x) under 16 bytes. */
static inline int32_t opbridge_conv_patch_call_valid(const opbridge_conv_s8_folded_params *params,
                                                     const int8_t *input, const int8_t *filter, const int8_t *scratch,
                                                     const int8_t *output) {
  if (!opbridge_conv_call_valid(params, input, filter, output) || scratch == NULL) {
    return 0;
  }
  const int32_t row_taps = params->dilation_width == 1 ? params->filter.width : 1;
  return row_taps * params->input.channels < 16;
}

/* Whether no output channel of `channels` rescales by a left shift (a positive shift): the paths
 * that hold units in registers take none. */
static inline int32_t opbridge_no_left_shift(const opbridge_folded_requantization *rq, int32_t channels) {
  for (int32_t c = 0; c < (rq->per_channel ? channels : 1); ++c) {
    if (rq->shifts[c] > 0) {
      return 0;
    }
  }
  return 1;
}

/* opbridge_conv_2d_s8_folded_patch_rows: a patch layer (above) not dilated along x, of windows of
 * at most OPBRIDGE_PATCH_ROWS_MAX_WINDOW bytes, output channels a multiple of 4 whose weight rows
 * padded to whole blocks fit OPBRIDGE_PATCH_ROWS_ROWS_BYTES, and no left shift. */
static inline int32_t opbridge_conv_patch_rows_call_valid(const opbridge_conv_s8_folded_params *params,
                                                          const int8_t *input, const int8_t *filter,
                                                          const int8_t *scratch, const int8_t *output) {
  if (!opbridge_conv_patch_call_valid(params, input, filter, scratch, output) || params->dilation_width != 1) {
    return 0;
  }
  const int32_t window_bytes = params->filter.height * params->filter.width * params->filter.channels;
  const int32_t padded = window_bytes > 16 ? 32 : 16;
  if (window_bytes > OPBRIDGE_PATCH_ROWS_MAX_WINDOW || params->output.channels % 4 != 0 ||
      params->output.channels * padded > OPBRIDGE_PATCH_ROWS_ROWS_BYTES) {
    return 0;
  }
  return opbridge_no_left_shift(&params->requantization, params->output.channels);
}

/* opbridge_conv_2d_s8_folded_blocks: window rows of whole blocks, windows of at most 576 bytes. */
static inline int32_t opbridge_conv_blocks_call_valid(const opbridge_conv_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter,
                                                      const int8_t *output) {
  if (!opbridge_conv_call_valid(params, input, filter, output)) {
    return 0;
  }
  const opbridge_dims *fl = &params->filter;
  return params->dilation_width == 1 && (fl->width * fl->channels) % 16 == 0 &&
         fl->height * fl->width * fl->channels <= OPBRIDGE_CONV_BLOCKS_MAX_WINDOW;
}

/* opbridge_conv_2d_s8_folded_pairs: output channels a multiple of 4 and either window rows of
 * whole blocks, not dilated along x, the window rows of two neighbouring positions within
 * OPBRIDGE_CONV_PAIRS_BAND_BYTES, or windows of one row (not dilated) of more than 16 bytes that
 * are not whole blocks, two of them padded to whole blocks within OPBRIDGE_CONV_PAIRS_BAND_BYTES,
 * with no rows of padding. */
static inline int32_t opbridge_conv_pairs_call_valid(const opbridge_conv_s8_folded_params *params,
                                                     const int8_t *input, const int8_t *filter,
                                                     const int8_t *output) {
  if (!opbridge_conv_call_valid(params, input, filter, output)) {
    return 0;
  }
  const opbridge_dims *fl = &params->filter;
  if (params->output.channels % 4 != 0) {
    return 0;
  }
  if ((fl->width * fl->channels) % 16 != 0) {
    const int32_t window_bytes = fl->width * fl->channels;
    return fl->height == 1 && (fl->width == 1 || params->dilation_width == 1) && window_bytes > 16 &&
           params->padding_height == 0 && 2 * ((window_bytes + 15) / 16 * 16) <= OPBRIDGE_CONV_PAIRS_BAND_BYTES;
  }
  return params->dilation_width == 1 && fl->height * (params->stride_width + fl->width) * fl->channels <=
                                            OPBRIDGE_CONV_PAIRS_BAND_BYTES;
}

/* opbridge_conv_2d_s8_folded_pointwise: 1x1, channels a multiple of 16, no padding. */
static inline int32_t opbridge_conv_pointwise_call_valid(const opbridge_conv_s8_folded_params *params,
                                                         const int8_t *input, const int8_t *filter,
                                                         const int8_t *output) {
  return opbridge_conv_call_valid(params, input, filter, output) && params->filter.height == 1 &&
         params->filter.width == 1 && params->input.channels % 16 == 0 && params->padding_height == 0 &&
         params->padding_width == 0;
}

/* The input columns a planes path's windows read (its plane's columns from padding_width on):
 * opbridge_conv_2d_s8_folded_planes and opbridge_depthwise_conv_2d_s8_folded_planar. */
static inline int32_t opbridge_plane_inside_columns(const opbridge_conv_s8_folded_params *params) {
  const int64_t reach = (int64_t)(params->output.width - 1) * params->stride_width + params->filter.width;
  const int64_t inside = reach - params->padding_width;
  return inside > params->input.width ? params->input.width : inside < 0 ? 0 : (int32_t)inside;
}

/* Whether a planes path's plane fits `plane_bytes`: the columns its windows read (`column_bytes`
 * each), and the windows of the last group of four positions (read whole: `vector_bytes` from each
 * window's start, the group's store predicated). */
static inline int32_t opbridge_plane_fits(const opbridge_conv_s8_folded_params *params, int64_t column_bytes,
                                          int64_t vector_bytes, int64_t plane_bytes) {
  const int64_t reach = (int64_t)(params->output.width - 1) * params->stride_width + params->filter.width;
  const int64_t right_edge = (int64_t)params->padding_width + opbridge_plane_inside_columns(params);
  const int64_t columns = right_edge > reach ? right_edge : reach;
  const int64_t last_window =
      ((int64_t)(params->output.width + 3) / 4 * 4 - 1) * params->stride_width * column_bytes;
  return columns * column_bytes <= plane_bytes && last_window + vector_bytes <= plane_bytes;
}

/* opbridge_conv_2d_s8_folded_planes: see opbridge_kernels_folded_s8.h. */
static inline int32_t opbridge_conv_planes_call_valid(const opbridge_conv_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter,
                                                      const int8_t *scratch, const int8_t *output) {
  if (!opbridge_conv_patch_call_valid(params, input, filter, scratch, output) || params->dilation_height != 1 ||
      params->dilation_width != 1) {
    return 0;
  }
  const opbridge_dims *fl = &params->filter;
  const int64_t column_bytes = (int64_t)fl->height * params->input.channels;
  const int64_t window_bytes = column_bytes * fl->width;
  const int64_t vector_bytes = (window_bytes + 15) / 16 * 16;
  if (window_bytes > OPBRIDGE_CONV_PLANE_MAX_WINDOW ||
      (int64_t)params->output.channels * (window_bytes + 1) > OPBRIDGE_CONV_PLANE_WEIGHT_BYTES) {
    return 0;
  }
  return opbridge_plane_fits(params, column_bytes, vector_bytes, OPBRIDGE_CONV_PLANE_BYTES);
}

/* opbridge_conv_2d_s8_folded_pointwise_by_channel: 1x1, stride 1, unpadded (the output's positions
 * are the input's), at most OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH input channels; `scratch`, when
 * given, as opbridge_conv_2d_s8_folded_patch takes it. */
static inline int32_t opbridge_conv_pointwise_by_channel_call_valid(const opbridge_conv_s8_folded_params *params,
                                                                    const int8_t *input, const int8_t *filter,
                                                                    const int8_t *scratch, const int8_t *output) {
  if (!opbridge_conv_call_valid(params, input, filter, output)) {
    return 0;
  }
  return params->filter.height == 1 && params->filter.width == 1 && params->stride_height == 1 &&
         params->stride_width == 1 && params->padding_height == 0 && params->padding_width == 0 &&
         params->output.height == params->input.height && params->output.width == params->input.width &&
         params->input.channels <= OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH &&
         (scratch == NULL || params->input.channels < 16);
}

/* opbridge_conv_2d_s8_folded_pointwise_narrow: at most 64 input channels, output channels a
 * multiple of 4, no left shift. */
static inline int32_t opbridge_conv_pointwise_narrow_call_valid(const opbridge_conv_s8_folded_params *params,
                                                                const int8_t *input, const int8_t *filter,
                                                                const int8_t *output) {
  if (!opbridge_conv_pointwise_call_valid(params, input, filter, output) || params->input.channels > 64 ||
      params->output.channels % 4 != 0) {
    return 0;
  }
  return opbridge_no_left_shift(&params->requantization, params->output.channels);
}

/* Depthwise: output channels a multiple of the input's (any multiplier), or equal to them
 * (opbridge_depthwise_conv_2d_s8_folded, multiplier 1). */
static inline int32_t opbridge_depthwise_call_valid(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, const int8_t *output,
                                                    int32_t any_multiplier) {
  return params != NULL && input != NULL && filter != NULL && output != NULL &&
         opbridge_folded_conv_params_valid(params, params->filter.channels) &&
         params->output.channels % params->input.channels == 0 &&
         (any_multiplier || params->output.channels == params->input.channels);
}

/* opbridge_depthwise_conv_2d_s8_folded_8_channels: depth multiplier 1, 8 channels, stride 1 along x,
 * at most OPBRIDGE_DEPTHWISE_8_CHANNELS_MAX_TAPS taps, and lines of two positions and a spare
 * column (filter height x (x span + 3) x 8 bytes) within OPBRIDGE_DEPTHWISE_8_CHANNELS_LINES. Any
 * output width (a patch stage's tiles). */
static inline int32_t opbridge_depthwise_8_channels_call_valid(const opbridge_conv_s8_folded_params *params,
                                                               const int8_t *input, const int8_t *filter,
                                                               const int8_t *output) {
  if (!opbridge_depthwise_call_valid(params, input, filter, output, 0)) {
    return 0;
  }
  const opbridge_dims *fl = &params->filter;
  const int32_t x_span = (fl->width - 1) * params->dilation_width;
  return params->input.channels == 8 && params->stride_width == 1 &&
         fl->height * fl->width <= OPBRIDGE_DEPTHWISE_8_CHANNELS_MAX_TAPS &&
         fl->height * (x_span + 4) * 8 <= OPBRIDGE_DEPTHWISE_8_CHANNELS_LINES;
}

/* opbridge_depthwise_conv_2d_s8_folded_planar: see opbridge_kernels_folded_s8.h. */
static inline int32_t opbridge_depthwise_planar_call_valid(const opbridge_conv_s8_folded_params *params,
                                                           const int8_t *input, const int8_t *filter,
                                                           const int8_t *output) {
  if (!opbridge_depthwise_call_valid(params, input, filter, output, 0)) {
    return 0;
  }
  const opbridge_dims *fl = &params->filter;
  const int64_t taps = (int64_t)fl->height * fl->width;
  const int64_t vector_bytes = (taps + 15) / 16 * 16;
  if (params->dilation_height != 1 || params->dilation_width != 1 || taps > OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS ||
      fl->height * vector_bytes > OPBRIDGE_DEPTHWISE_PLANE_WEIGHT_BYTES || taps * params->input.channels > 65535 ||
      params->input.channels > 8191) {
    return 0;
  }
  return opbridge_plane_fits(params, fl->height, vector_bytes, OPBRIDGE_DEPTHWISE_PLANE_BYTES);
}

static inline int32_t opbridge_fully_connected_call_valid(const opbridge_fully_connected_s8_folded_params *params,
                                                          const int8_t *input, const int8_t *filter,
                                                          const int8_t *output) {
  return params != NULL && input != NULL && filter != NULL && output != NULL && params->batches > 0 &&
         params->input_depth > 0 && params->output_depth > 0 &&
         opbridge_folded_requantization_valid(&params->requantization);
}

/* Whether every accumulator of `units` outputs over `depth` products stays below 2^30 in magnitude
 * (folded bias plus at most depth products of magnitude 2^14) and every rescale is a right shift of
 * 1 to 31: the DSP variant's short output stage (docs/kernels.md). */
static inline int32_t opbridge_folded_doubling_fits(const opbridge_folded_requantization *rq, int32_t units,
                                                    int32_t depth) {
  if (depth >= (1 << 16)) {
    return 0;
  }
  const int32_t limit = (1 << 30) - (depth << 14); /* |bias| must stay below it */
  for (int32_t c = 0; c < (rq->per_channel ? units : 1); ++c) {
    if (rq->shifts[c] > -1 || rq->shifts[c] < -31) {
      return 0;
    }
  }
  for (int32_t c = 0; c < units; ++c) {
    if (rq->folded_bias[c] <= -limit || rq->folded_bias[c] >= limit) {
      return 0;
    }
  }
  return 1;
}

/* opbridge_fully_connected_s8_folded_dsp_layout's shapes (every variant); the DSP variant, whose
 * output stage needs it, also checks opbridge_folded_doubling_fits(rq, units, 2 x depth). */
static inline int32_t opbridge_fully_connected_dsp_layout_call_valid(
    const opbridge_fully_connected_s8_folded_params *params, const int8_t *input, const int8_t *filter,
    const int8_t *output) {
  return opbridge_fully_connected_call_valid(params, input, filter, output) && params->input_depth % 8 == 0 &&
         params->input_depth >= 16 && params->input_depth <= OPBRIDGE_DSP_LAYOUT_MAX_DEPTH &&
         params->output_depth % 2 == 0;
}

/* opbridge_fully_connected_s8_folded_short: rows shorter than 16 bytes. */
static inline int32_t opbridge_fully_connected_short_call_valid(const opbridge_fully_connected_s8_folded_params *params,
                                                                const int8_t *input, const int8_t *filter,
                                                                const int8_t *output) {
  return opbridge_fully_connected_call_valid(params, input, filter, output) && params->input_depth < 16;
}

static inline int32_t opbridge_add_table_call_valid(const opbridge_add_s8_table_params *params, const int8_t *input1,
                                                    const int8_t *input2, const int8_t *output) {
  return params != NULL && input1 != NULL && input2 != NULL && output != NULL && params->count >= 0 &&
         params->input1_table != NULL && params->input2_table != NULL && params->output_shift <= 0 &&
         params->output_shift >= -31 && params->activation_min <= params->activation_max;
}

#endif /* OPBRIDGE_FOLDED_INTERNAL_H_ */
