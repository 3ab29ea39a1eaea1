/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The int8 kernel forms specialised at conversion time (docs/kernels.md).
 *
 * The emitter chooses these for layers with TFLite's fixed-point
 * requantization and symmetric filters, and precomputes what a runtime
 * library would compute on every call:
 *
 *   folded_bias[c] = bias[c] + input_offset * (sum of output channel c's weights)
 *
 * so that an output whose window lies inside the input is
 * folded_bias[c] + sum(input * weight), a plain int8 dot product (one
 * VMLADAVA.S8 per 16 products on Helium). Where the window overhangs the
 * input, the kernels subtract input_offset * (the weights of the taps
 * outside), which gives TFLite Micro's result exactly (it skips those taps).
 *
 * Results equal opbridge_conv_2d_s8, opbridge_depthwise_conv_2d_s8,
 * opbridge_fully_connected_s8 and opbridge_add_s8 (and so TFLite Micro) bit for bit, on every
 * variant (opbridge_kernel_variant.h). Shapes, strides and the other
 * parameters are those of opbridge_kernels_s8.h.
 */
#ifndef OPBRIDGE_KERNELS_FOLDED_S8_H_
#define OPBRIDGE_KERNELS_FOLDED_S8_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernel_variant.h"
#include "cc/kernels/opbridge_kernels_s8.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Output stage of the folded forms: TFLite's fixed-point requantization. */
typedef struct {
  const int32_t *folded_bias; /* [output channels] */
  const int32_t *multipliers; /* [output channels], or [1] if !per_channel */
  const int32_t *shifts;      /* as multipliers; positive: left */
  int32_t per_channel;
  int32_t output_offset;
  int32_t activation_min;
  int32_t activation_max;
} opbridge_folded_requantization;

typedef struct {
  int32_t input_offset;
  int32_t stride_height;
  int32_t stride_width;
  int32_t dilation_height;
  int32_t dilation_width;
  int32_t padding_height;
  int32_t padding_width;
  opbridge_dims input;
  opbridge_dims filter; /* [out_ch, h, w, in_ch] */
  opbridge_dims output;
  opbridge_folded_requantization requantization;
} opbridge_conv_s8_folded_params;

/* CONV_2D (not grouped), any window: rows of the window read in place. */
int32_t opbridge_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                   const int8_t *filter, int8_t *output);

/* CONV_2D whose window rows (or taps, when dilated along x) are shorter than 16 bytes (first
 * layers with 1-3 channels): each window is copied into `scratch` (filter height x width x input
 * channels bytes, planned in the arena: ops/conv_2d/emit_c.py, conv_2d_scratch_bytes) with the
 * input zero point where it overhangs the input, then read as one row. Other shapes:
 * OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_patch(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                         const int8_t *filter, int8_t *scratch, int8_t *output);

/* The largest window opbridge_conv_2d_s8_folded_patch_rows takes, and the most bytes its output
 * channels' weight rows take padded to 16 or 32 bytes (on the stack). */
#define OPBRIDGE_PATCH_ROWS_MAX_WINDOW 32
#define OPBRIDGE_PATCH_ROWS_ROWS_BYTES 1024

/* opbridge_conv_2d_s8_folded_patch for first layers of small windows (3x3 over 1 to 3 channels,
 * 5x5 over 1): not dilated along x, a window of at most OPBRIDGE_PATCH_ROWS_MAX_WINDOW bytes,
 * output channels a multiple of 4 (at most 64 for windows of up to 16 bytes, 32 above) and no
 * left shift. The Helium variant copies a run of windows of an output row onto the stack and
 * runs them in one call; the others are opbridge_conv_2d_s8_folded_patch. Other shapes:
 * OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_patch_rows(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                              const int8_t *filter, int8_t *scratch, int8_t *output);

/* The largest window opbridge_conv_2d_s8_folded_blocks takes (3x3x64): its variants may copy a
 * window that overhangs the input onto the stack. */
#define OPBRIDGE_CONV_BLOCKS_MAX_WINDOW 576

/* CONV_2D whose window rows are whole 16-byte blocks (filter width x input channels a multiple of
 * 16, not dilated along x) and whose window is at most OPBRIDGE_CONV_BLOCKS_MAX_WINDOW bytes:
 * the general form without its per-tap border corrections (the 3x3 layers of small CNNs). Other
 * shapes: OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_blocks(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                          const int8_t *filter, int8_t *output);

/* The band of input rows opbridge_conv_2d_s8_folded_pairs copies onto the stack (Helium). */
#define OPBRIDGE_CONV_PAIRS_BAND_BYTES 2048

/* CONV_2D whose window rows are whole 16-byte blocks (filter width x input channels a multiple of
 * 16, not dilated along x), output channels a multiple of 4, and filter height x (stride along x +
 * filter width) x input channels at most OPBRIDGE_CONV_PAIRS_BAND_BYTES; or windows of one row, not
 * dilated, of more than 16 bytes that are not whole blocks (a 1x1 over 24, 40, 72, ... channels,
 * Conv1D's 1x5 over 40 features), two of them rounded up to whole blocks within
 * OPBRIDGE_CONV_PAIRS_BAND_BYTES, with no rows of padding. Where
 * OPBRIDGE_HELIUM_WEIGHT_LAYOUT (opbridge_kernel_variant.h), the filter is in the pairs layout:
 * for each group of four output channels, their weight rows interleaved 16 bytes at a time (block
 * 0 of rows 0-3, then block 1, ...; windows of one row that are not whole blocks padded with
 * zero weights to whole blocks first); the Helium variant runs each output row two positions at a
 * time, each weight block loaded once for both, reading the windows in place where they lie inside
 * the input and from a band of their rows copied onto the stack elsewhere. Other builds take the
 * plain filter, as opbridge_conv_2d_s8_folded. Other shapes: OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_pairs(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                         const int8_t *filter, int8_t *output);

/* CONV_2D with a 1x1 filter, input channels a multiple of 16 and no padding: each position is a
 * fully connected row. Other shapes: OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_pointwise(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output);

/* opbridge_conv_2d_s8_folded_pointwise for at most 64 input channels, output channels a multiple
 * of 4 and no left shift (positive shift): the 1x1 layers of small models, whose variants hold
 * the input vector in registers. Other shapes: OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_pointwise_narrow(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, int8_t *output);

/* The most bytes of opbridge_conv_2d_s8_folded_planes's plane (an output row's window columns) and
 * window, and of its weights (output channels x (window + 1)), all on the stack. */
#define OPBRIDGE_CONV_PLANE_BYTES 2048
#define OPBRIDGE_CONV_PLANE_MAX_WINDOW 64
#define OPBRIDGE_CONV_PLANE_WEIGHT_BYTES 512

/* opbridge_conv_2d_s8_folded_patch's layers (window rows under 16 bytes: first layers over 1 to 3
 * channels) not dilated, windows of at most OPBRIDGE_CONV_PLANE_MAX_WINDOW bytes, output channels x
 * (window + 1) at most OPBRIDGE_CONV_PLANE_WEIGHT_BYTES, whose plane (the columns an output row's
 * windows read x filter height x channels; the last group of four windows whole) fits
 * OPBRIDGE_CONV_PLANE_BYTES: the Helium variant copies each output row's input rows into a plane
 * where every window's bytes are contiguous, then runs one output channel at a time over the row;
 * the others are opbridge_conv_2d_s8_folded_patch. Other shapes: OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_planes(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                          const int8_t *filter, int8_t *scratch, int8_t *output);

/* The most input channels opbridge_conv_2d_s8_folded_pointwise_by_channel takes (four 16-byte vectors). */
#define OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH 64

/* A 1x1 CONV_2D of stride 1 over at most OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH input channels (the
 * expansions and projections of MobileNet v2 and MCUNet-like blocks): the Helium variant runs one
 * output channel at a time over every position, its weights in registers; the others are
 * opbridge_conv_2d_s8_folded_patch when `scratch` is given (the emitter gives it, one window, to
 * inputs of fewer than 16 channels), else opbridge_conv_2d_s8_folded. Other shapes:
 * OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_conv_2d_s8_folded_pointwise_by_channel(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *scratch,
                                                        int8_t *output);

/* DEPTHWISE_CONV_2D with depth multiplier 1; filter is [1, h, w, channels]. */
int32_t opbridge_depthwise_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output);

/* opbridge_depthwise_conv_2d_s8_folded, for the layers whose channels are whole blocks of 16 (the
 * emitter's choice for those): the Helium variant is the same code without the partial block's path
 * (channels past the last whole block, if any, run four at a time), so that a module whose layers
 * take only whole blocks neither links that path nor counts its stack (docs/kernels.md, "Stack");
 * elsewhere it is opbridge_depthwise_conv_2d_s8_folded. Any shape. */
#if OPBRIDGE_KERNELS_HELIUM
int32_t opbridge_depthwise_conv_2d_s8_folded_whole16(const opbridge_conv_s8_folded_params *params,
                                                     const int8_t *input, const int8_t *filter, int8_t *output);
#else
static inline int32_t opbridge_depthwise_conv_2d_s8_folded_whole16(const opbridge_conv_s8_folded_params *params,
                                                                   const int8_t *input, const int8_t *filter,
                                                                   int8_t *output) {
  return opbridge_depthwise_conv_2d_s8_folded(params, input, filter, output);
}
#endif

/* The most taps (a 7x7 window) and line bytes opbridge_depthwise_conv_2d_s8_folded_8_channels takes. */
#define OPBRIDGE_DEPTHWISE_8_CHANNELS_MAX_TAPS 49
#define OPBRIDGE_DEPTHWISE_8_CHANNELS_LINES 1024

/* opbridge_depthwise_conv_2d_s8_folded for exactly 8 channels and stride 1 along x (MobileNet v1
 * 0.25's first depthwise layer), at most OPBRIDGE_DEPTHWISE_8_CHANNELS_MAX_TAPS taps and filter
 * height x (x span + 4) x 8 <= OPBRIDGE_DEPTHWISE_8_CHANNELS_LINES, any size (a patch stage's tiles
 * included): the Helium variant runs two positions per 16-lane vector; the others are
 * opbridge_depthwise_conv_2d_s8_folded. Other shapes: OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_depthwise_conv_2d_s8_folded_8_channels(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output);

/* The most bytes of one channel's plane, taps per window, and bytes of a window's weights in
 * every slot rotation that opbridge_depthwise_conv_2d_s8_folded_planar takes (on the stack). */
#define OPBRIDGE_DEPTHWISE_PLANE_BYTES 1024
#define OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS 64
#define OPBRIDGE_DEPTHWISE_PLANE_WEIGHT_BYTES 512

/* opbridge_depthwise_conv_2d_s8_folded for windows not dilated, of at most
 * OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS taps, filter height x taps rounded up to 16 at most
 * OPBRIDGE_DEPTHWISE_PLANE_WEIGHT_BYTES, taps x channels below 65536, whose plane (the columns the
 * windows read, x filter height; and the windows of the last group of four positions, whole
 * 16-byte vectors) fits OPBRIDGE_DEPTHWISE_PLANE_BYTES: the Helium variant runs channel by channel
 * with each window's taps contiguous (the 5x5 and 7x7 layers of MCUNet-like models, the wide 3x3
 * ones of MobileNets); the others are opbridge_depthwise_conv_2d_s8_folded. Other shapes:
 * OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_depthwise_conv_2d_s8_folded_planar(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, int8_t *output);

/* DEPTHWISE_CONV_2D with any depth multiplier (output channels / input channels): output channel c
 * reads input channel c / multiplier; filter is [1, h, w, output channels]. */
int32_t opbridge_depthwise_conv_2d_s8_folded_multiplier(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output);

typedef struct {
  int32_t batches;
  int32_t input_depth;
  int32_t output_depth;
  opbridge_folded_requantization requantization;
} opbridge_fully_connected_s8_folded_params;

/* FULLY_CONNECTED with symmetric weights; filter is [output_depth][input_depth]. */
int32_t opbridge_fully_connected_s8_folded(const opbridge_fully_connected_s8_folded_params *params,
                                           const int8_t *input, const int8_t *filter, int8_t *output);

/* opbridge_fully_connected_s8_folded for rows shorter than 16 bytes (input_depth < 16: an
 * autoencoder's bottleneck), whose variants read each row as one vector. Other shapes:
 * OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_fully_connected_s8_folded_short(const opbridge_fully_connected_s8_folded_params *params,
                                                 const int8_t *input, const int8_t *filter, int8_t *output);

/* The deepest rows opbridge_fully_connected_s8_folded_dsp_layout takes (the DSP variant widens the
 * input row on the stack, 2 bytes per byte). */
#define OPBRIDGE_DSP_LAYOUT_MAX_DEPTH 1024

/* opbridge_fully_connected_s8_folded whose filter is in the DSP layout where
 * OPBRIDGE_DSP_WEIGHT_LAYOUT is 1 (opbridge_kernel_variant.h; each odd byte of the filter lowered by
 * 1 where the byte before it is negative, as int32 words) and plain elsewhere. Rows of a multiple
 * of 8 bytes, at least 16 and at most OPBRIDGE_DSP_LAYOUT_MAX_DEPTH, and an even number of units;
 * where the layout is read, also right shifts of 1 to 31 and |folded bias| + depth x 2^15 below
 * 2^30 (its output stage). In the DSP layout the folded bias also holds 127 x each unit's odd
 * weights, and the emitter keeps each unit's products with the odd inputs less 127 below 2^23
 * (python/opbridge/ops/fully_connected/emit_c.py, dsp_layout_filter). Other shapes:
 * OPBRIDGE_STATUS_INVALID_ARGUMENT. */
int32_t opbridge_fully_connected_s8_folded_dsp_layout(const opbridge_fully_connected_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter, int8_t *output);

/* opbridge_fully_connected_s8_folded and opbridge_fully_connected_s8_folded_dsp_layout for the
 * layers whose units share one multiplier and shift (requantization.per_channel 0: the emitter's
 * choice for those): the Helium variant is the same code without the per-channel rows (their
 * stage constants take 1 KB of stack; a per-channel call there takes the slower units path), so
 * that a module whose layers all share one stage neither links that path nor counts its stack
 * (docs/kernels.md, "Stack"); elsewhere they are the plain entry points. Their shapes. */
#if OPBRIDGE_KERNELS_HELIUM
int32_t opbridge_fully_connected_s8_folded_per_tensor(const opbridge_fully_connected_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter, int8_t *output);
int32_t opbridge_fully_connected_s8_folded_dsp_layout_per_tensor(
    const opbridge_fully_connected_s8_folded_params *params, const int8_t *input, const int8_t *filter,
    int8_t *output);
#else
static inline int32_t opbridge_fully_connected_s8_folded_per_tensor(
    const opbridge_fully_connected_s8_folded_params *params, const int8_t *input, const int8_t *filter,
    int8_t *output) {
  return opbridge_fully_connected_s8_folded(params, input, filter, output);
}
static inline int32_t opbridge_fully_connected_s8_folded_dsp_layout_per_tensor(
    const opbridge_fully_connected_s8_folded_params *params, const int8_t *input, const int8_t *filter,
    int8_t *output) {
  return opbridge_fully_connected_s8_folded_dsp_layout(params, input, filter, output);
}
#endif

/* ADD and SUB of two int8 tensors of one shape. TFLite Micro's per-input stage (offset, the
 * shift left by 20, the input's multiplier) depends only on the input byte, so it is a table of
 * 256 int32 per input, indexed by byte + 128 (SUB's second table is negated); the kernel adds two
 * entries and rescales the sum to the output (output_shift <= 0). */
typedef struct {
  int32_t count; /* elements */
  const int32_t *input1_table;
  const int32_t *input2_table;
  int32_t output_multiplier;
  int32_t output_shift;
  int32_t output_offset;
  int32_t activation_min;
  int32_t activation_max;
} opbridge_add_s8_table_params;

int32_t opbridge_add_s8_table(const opbridge_add_s8_table_params *params, const int8_t *input1,
                              const int8_t *input2, int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_KERNELS_FOLDED_S8_H_ */
