/* SPDX-License-Identifier: Apache-2.0 */
/* The folded int8 forms (opbridge_kernels_folded_s8.h) in C99: the portable variant (x86_64,
 * aarch64), the reference for the others, and the DSP variant's C (Cortex-M4): the same code with
 * its dot products in SMLAD pairs (opbridge_dot4) and, on Thumb-2 cores (OPBRIDGE_DSP_ASSEMBLY),
 * its hot loops in the assembly of opbridge_folded_s8_dsp.c (docs/kernels.md, "Variants"). */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_PORTABLE || OPBRIDGE_KERNELS_DSP

#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_folded_dsp_internal.h"
#include "cc/kernels/opbridge_folded_internal.h"

/* Channels a depthwise window inside the input accumulates at a time (on the stack). */
#define OPBRIDGE_DEPTHWISE_CHUNK 32

/* acc[k] += sum(x[i] * w_k[i]) for i < n, for the four weight rows w_k = w + k * stride.
 * DSP: per 4 bytes SXTB16 splits x into its even and odd bytes as int16 pairs, and two SMLADs per
 * row multiply-accumulate them (4 products). */
static inline void opbridge_dot4(const int8_t *x, const int8_t *w, int32_t stride, int32_t n, int32_t acc[4]) {
  const int8_t *w0 = w;
  const int8_t *w1 = w + stride;
  const int8_t *w2 = w1 + stride;
  const int8_t *w3 = w2 + stride;
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  int32_t i = 0;
#if OPBRIDGE_KERNELS_DSP
  for (; i + 4 <= n; i += 4) {
    const uint32_t xv = opbridge_load4(x + i);
    const int16x2_t even = __sxtb16(xv);
    const int16x2_t odd = opbridge_odd_bytes(xv);
    uint32_t wv = opbridge_load4(w0 + i);
    a0 = __smlad(__sxtb16(wv), even, a0);
    a0 = __smlad(opbridge_odd_bytes(wv), odd, a0);
    wv = opbridge_load4(w1 + i);
    a1 = __smlad(__sxtb16(wv), even, a1);
    a1 = __smlad(opbridge_odd_bytes(wv), odd, a1);
    wv = opbridge_load4(w2 + i);
    a2 = __smlad(__sxtb16(wv), even, a2);
    a2 = __smlad(opbridge_odd_bytes(wv), odd, a2);
    wv = opbridge_load4(w3 + i);
    a3 = __smlad(__sxtb16(wv), even, a3);
    a3 = __smlad(opbridge_odd_bytes(wv), odd, a3);
  }
#endif
  for (; i < n; ++i) {
    const int32_t value = x[i];
    a0 += value * w0[i];
    a1 += value * w1[i];
    a2 += value * w2[i];
    a3 += value * w3[i];
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

/* sum(x[i] * w[i]) for i < n. */
static inline int32_t opbridge_dot1(const int8_t *x, const int8_t *w, int32_t n) {
  int32_t acc = 0;
  int32_t i = 0;
#if OPBRIDGE_KERNELS_DSP
  for (; i + 4 <= n; i += 4) {
    const uint32_t xv = opbridge_load4(x + i);
    const uint32_t wv = opbridge_load4(w + i);
    acc = __smlad(__sxtb16(wv), __sxtb16(xv), acc);
    acc = __smlad(opbridge_odd_bytes(wv), opbridge_odd_bytes(xv), acc);
  }
#endif
  for (; i < n; ++i) {
    acc += (int32_t)x[i] * (int32_t)w[i];
  }
  return acc;
}

/* The output stage's constants, read once per call rather than once per output. */
typedef struct {
  const int32_t *multipliers;
  const int32_t *shifts;
  int32_t channel_step; /* 1 if per channel, else 0 */
  int32_t output_offset;
  int32_t activation_min;
  int32_t activation_max;
} opbridge_output_stage;

static inline opbridge_output_stage opbridge_output_stage_of(const opbridge_folded_requantization *rq) {
  const opbridge_output_stage stage = {rq->multipliers,   rq->shifts,          rq->per_channel ? 1 : 0,
                                       rq->output_offset, rq->activation_min, rq->activation_max};
  return stage;
}

/* opbridge_folded_output with the stage's constants at hand. */
static inline int8_t opbridge_stage_output(int32_t acc, const opbridge_output_stage *stage, int32_t channel) {
  const int32_t index = channel * stage->channel_step;
  int32_t value = opbridge_rescale(acc, stage->multipliers[index], stage->shifts[index]) + stage->output_offset;
  value = value < stage->activation_min ? stage->activation_min : value;
  value = value > stage->activation_max ? stage->activation_max : value;
  return (int8_t)value;
}

/* Whether every output channel's rescale is a right shift of at least 1 (the assembly output
 * stage's case). */
static inline int32_t opbridge_right_shifts_only(const opbridge_folded_requantization *rq, int32_t units) {
  const int32_t count = rq->per_channel ? units : 1;
  for (int32_t c = 0; c < count; ++c) {
    if (rq->shifts[c] > -1) {
      return 0;
    }
  }
  return 1;
}

/* Whether a layer's `units` outputs may take opbridge_rows_units's assembly (checked once per
 * call, not per window). */
static inline int32_t opbridge_rows_assembly(const opbridge_folded_requantization *rq, int32_t units) {
  return OPBRIDGE_DSP_ASSEMBLY && units >= 4 && opbridge_right_shifts_only(rq, units);
}

/* All `units` outputs of one window whose `rows` rows of `run` contiguous bytes are `row_step`
 * apart in the input (weights: `rows * run` bytes per unit, contiguous): four units at a time,
 * in assembly when `assembly` (opbridge_rows_assembly) and the rows are whole words. */
static void opbridge_rows_units(const int8_t *x, int32_t rows, int32_t run, int32_t row_step, const int8_t *filter,
                                int32_t units, const opbridge_folded_requantization *rq, int32_t assembly,
                                int8_t *output) {
  const int32_t depth = rows * run;
  const opbridge_output_stage stage = opbridge_output_stage_of(rq);
  int32_t unit = 0;
#if OPBRIDGE_DSP_ASSEMBLY
  if (assembly && run % 4 == 0) {
    const opbridge_dsp_shared_stage shared = opbridge_dsp_shared_stage_of(rq);
    opbridge_dsp_window4_job job;
    opbridge_dsp_stage_init(&job.stage, rq, 4);
    opbridge_dsp_stage_restart(&job.stage, rq, &shared, units / 4, output);
    job.x = x;
    job.w = filter;
    job.depth = depth;
    job.run = run;
    job.rows = rows;
    job.row_skip = row_step - run;
    if (opbridge_dsp_full_range(rq)) {
      opbridge_dsp_window4_full(&job);
    } else {
      opbridge_dsp_window4_clamped(&job);
    }
    unit = units / 4 * 4;
  }
#else
  (void)assembly;
#endif
  for (; unit + 4 <= units; unit += 4) {
    int32_t acc[4] = {rq->folded_bias[unit], rq->folded_bias[unit + 1], rq->folded_bias[unit + 2],
                      rq->folded_bias[unit + 3]};
    const int8_t *w = filter + unit * depth;
    for (int32_t r = 0; r < rows; ++r) {
      opbridge_dot4(x + r * row_step, w + r * run, depth, run, acc);
    }
    for (int32_t k = 0; k < 4; ++k) {
      output[unit + k] = opbridge_stage_output(acc[k], &stage, unit + k);
    }
  }
  for (; unit < units; ++unit) {
    int32_t acc = rq->folded_bias[unit];
    for (int32_t r = 0; r < rows; ++r) {
      acc += opbridge_dot1(x + r * row_step, filter + unit * depth + r * run, run);
    }
    output[unit] = opbridge_stage_output(acc, &stage, unit);
  }
}

/* CONV_2D, one output channel of a window that may overhang the input: sum(input * weight) over
 * the taps inside, minus input_offset times the weights of the taps outside (with the folded
 * bias, TFLite Micro's accumulator, which skips those taps). */
static int32_t opbridge_folded_window(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                      const int8_t *taps, int32_t y_origin, int32_t x_origin) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const int32_t channels = in->channels;
  int32_t acc = 0;
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    for (int32_t fx = 0; fx < fl->width; ++fx, taps += channels) {
      const int32_t ix = x_origin + fx * params->dilation_width;
      if (iy >= 0 && iy < in->height && ix >= 0 && ix < in->width) {
        acc += opbridge_dot1(input + (iy * in->width + ix) * channels, taps, channels);
      } else {
        for (int32_t d = 0; d < channels; ++d) {
          acc -= params->input_offset * (int32_t)taps[d];
        }
      }
    }
  }
  return acc;
}

/* The window of output position (oy, ox) copied into `patch` (filter height x width x input
 * channels bytes), the input zero point where it overhangs the input: its products cancel the
 * folded bias's share of those taps. */
static void opbridge_patch_gather(const opbridge_conv_s8_folded_params *params, const int8_t *image, int32_t oy,
                                  int32_t ox, int8_t *patch) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const int8_t zero_point = (int8_t)(-params->input_offset);
  const int32_t y_origin = oy * params->stride_height - params->padding_height;
  const int32_t x_origin = ox * params->stride_width - params->padding_width;
  const int32_t row_bytes = fl->width * in->channels;
  /* Whether the window's rows lie inside the input along x and are contiguous: one copy a row. */
  const int32_t rows_whole = params->dilation_width == 1 && x_origin >= 0 && x_origin + fl->width <= in->width;
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    if (iy < 0 || iy >= in->height) {
      memset(patch, zero_point, (size_t)row_bytes);
      patch += row_bytes;
      continue;
    }
    if (rows_whole) {
      memcpy(patch, image + (iy * in->width + x_origin) * in->channels, (size_t)row_bytes);
      patch += row_bytes;
      continue;
    }
    for (int32_t fx = 0; fx < fl->width; ++fx, patch += in->channels) {
      const int32_t ix = x_origin + fx * params->dilation_width;
      if (ix >= 0 && ix < in->width) {
        memcpy(patch, image + (iy * in->width + ix) * in->channels, (size_t)in->channels);
      } else {
        memset(patch, zero_point, (size_t)in->channels);
      }
    }
  }
}

#if OPBRIDGE_DSP_ASSEMBLY
/* The largest window that overhangs the input opbridge_conv_2d_s8_folded copies to the stack for
 * the assembly (opbridge_dsp_window4_*) when the pairs do not take the layer (3x3x128). */
#define OPBRIDGE_DSP_MAX_COPIED_BORDER_WINDOW 1152

/* The largest window opbridge_dsp_conv_pairs takes when its input channels are a multiple of 4
 * (widened tap by tap from the input): the two widened windows take 4 bytes per window byte on
 * the stack (2304 bytes; 3x3x64). */
#define OPBRIDGE_DSP_PAIR_MAX_WINDOW 576
/* The largest window it copies first (other input channel counts: first layers), and the largest
 * filter it pads to whole words on the stack when the window is not (3x3x3 = 27 bytes: 28 bytes
 * per unit); with the copy and the widened windows, 2464 bytes of stack. */
#define OPBRIDGE_DSP_PAIR_MAX_COPIED_WINDOW 288
#define OPBRIDGE_DSP_PADDED_FILTER_BYTES 1024

/* The window of output position (oy, ox) into `windows` (window 0 at windows, window 1 at
 * windows + 2): each input byte as an int16, the even and odd bytes of each 4 as two int16
 * pairs, four words per 4 bytes interleaved with the other window's; taps outside the input read
 * the input zero point. */
static void opbridge_dsp_widen_window(const opbridge_conv_s8_folded_params *params, const int8_t *image,
                                      int32_t oy, int32_t ox, int32_t *windows) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const int32_t words = in->channels / 4;
  const int32_t zero_point = (-params->input_offset) & 0xFFFF;
  const int32_t zero_points = (int32_t)((uint32_t)zero_point << 16 | (uint32_t)zero_point);
  const int32_t y_origin = oy * params->stride_height - params->padding_height;
  const int32_t x_origin = ox * params->stride_width - params->padding_width;
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    for (int32_t fx = 0; fx < fl->width; ++fx) {
      const int32_t ix = x_origin + fx * params->dilation_width;
      if (iy >= 0 && iy < in->height && ix >= 0 && ix < in->width) {
        const int8_t *pixel = image + (iy * in->width + ix) * in->channels;
        for (int32_t i = 0; i < words; ++i, windows += 4) {
          const uint32_t word = opbridge_load4(pixel + 4 * i);
          windows[0] = __sxtb16(word);
          windows[1] = opbridge_odd_bytes(word);
        }
      } else {
        for (int32_t i = 0; i < words; ++i, windows += 4) {
          windows[0] = zero_points;
          windows[1] = zero_points;
        }
      }
    }
  }
}

/* `words` words of contiguous bytes (a copied window) widened as opbridge_dsp_widen_window does. */
static void opbridge_dsp_widen_bytes(const int8_t *bytes, int32_t words, int32_t *windows) {
  for (int32_t i = 0; i < words; ++i, windows += 4) {
    const uint32_t word = opbridge_load4(bytes + 4 * i);
    windows[0] = __sxtb16(word);
    windows[1] = opbridge_odd_bytes(word);
  }
}

/* Units whose stage constants opbridge_dsp_pairs builds at a time (opbridge_dsp_pair_stage, 16
 * bytes per unit: 1024 bytes of stack); a layer with more takes them in turns, each widening the
 * windows again. */
#define OPBRIDGE_DSP_PAIR_STAGE_UNITS 64

/* The stage constants of units first .. first + units - 1 (an even count), by pairs. */
static void opbridge_dsp_pair_stages(const opbridge_folded_requantization *rq, int32_t first, int32_t units,
                                     opbridge_dsp_pair_stage *stages) {
  for (int32_t u = 0; u < units; ++u) {
    const int32_t channel = first + u;
    const int32_t index = rq->per_channel ? channel : 0;
    const int32_t right_shift = -rq->shifts[index];
    int32_t *constants = u % 2 == 0 ? stages[u / 2].a : stages[u / 2].b;
    stages[u / 2].bias[u % 2] = rq->folded_bias[channel];
    constants[0] = rq->multipliers[index];
    constants[1] = (int32_t)(UINT32_C(1) << (right_shift - 1));
    constants[2] = right_shift;
  }
}

/* Every output position, two at a time (opbridge_dsp_pair2_*), over `filter`'s rows of
 * 4 * `words` bytes: the two windows widened tap by tap from the input (`patch` NULL), or each
 * copied into `patch` (4 * `words` bytes, its bytes past the window already set) and widened. */
static void opbridge_dsp_pairs(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                               const int8_t *filter, int32_t words, int32_t *windows, int8_t *patch,
                               int8_t *output) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *out = &params->output;
  const opbridge_folded_requantization *rq = &params->requantization;
  void (*const kernel)(opbridge_dsp_pair2_job *) =
      opbridge_dsp_full_range(rq) ? opbridge_dsp_pair2_full : opbridge_dsp_pair2_clamped;
  opbridge_dsp_pair_stage stages[OPBRIDGE_DSP_PAIR_STAGE_UNITS / 2];
  opbridge_dsp_pair2_job job;
  job.depth = 4 * words;
  job.windows = windows;
  job.words = words;
  job.output_offset = rq->output_offset;
  job.activation_min = rq->activation_min;
  job.activation_max = rq->activation_max;
  const int32_t positions = out->height * out->width;
  for (int32_t first = 0; first < out->channels; first += OPBRIDGE_DSP_PAIR_STAGE_UNITS) {
    const int32_t units =
        out->channels - first < OPBRIDGE_DSP_PAIR_STAGE_UNITS ? out->channels - first : OPBRIDGE_DSP_PAIR_STAGE_UNITS;
    opbridge_dsp_pair_stages(rq, first, units, stages);
    for (int32_t b = 0; b < out->batches; ++b) {
      const int8_t *image = input + b * in->height * in->width * in->channels;
      int8_t *batch_output = output + b * positions * out->channels + first;
      for (int32_t position = 0; position < positions; position += 2) {
        /* An odd last position is computed twice, its second result written over its first. */
        const int32_t second = position + 1 < positions ? position + 1 : position;
        if (patch == NULL) {
          opbridge_dsp_widen_window(params, image, position / out->width, position % out->width, windows);
          opbridge_dsp_widen_window(params, image, second / out->width, second % out->width, windows + 2);
        } else {
          opbridge_patch_gather(params, image, position / out->width, position % out->width, patch);
          opbridge_dsp_widen_bytes(patch, words, windows);
          opbridge_patch_gather(params, image, second / out->width, second % out->width, patch);
          opbridge_dsp_widen_bytes(patch, words, windows + 2);
        }
        job.stage = stages;
        job.w = filter + first * job.depth;
        job.output = batch_output + position * out->channels;
        job.second_output = batch_output + second * out->channels;
        job.pairs = units / 2;
        kernel(&job);
      }
    }
  }
}

/* The input-channels-a-multiple-of-4 case of opbridge_dsp_conv_pairs, in a frame of its own (the
 * two cases' buffers are not on the stack at once). */
static __attribute__((noinline)) void opbridge_dsp_pairs_by_tap(const opbridge_conv_s8_folded_params *params,
                                                                const int8_t *input, const int8_t *filter,
                                                                int32_t depth, int8_t *output) {
  int32_t windows[OPBRIDGE_DSP_PAIR_MAX_WINDOW];
  opbridge_dsp_pairs(params, input, filter, depth / 4, windows, NULL, output);
}

/* The copied-window case: a window that is not a whole number of words is read as one with a
 * zero byte or three after it, against filter rows padded with zeros the same way. 0 if the
 * padded filter would not fit its stack buffer. */
static __attribute__((noinline)) int32_t opbridge_dsp_pairs_copied(const opbridge_conv_s8_folded_params *params,
                                                                   const int8_t *input, const int8_t *filter,
                                                                   int32_t depth, int8_t *output) {
  const int32_t units = params->output.channels;
  const int32_t padded_depth = (depth + 3) / 4 * 4;
  int32_t windows[OPBRIDGE_DSP_PAIR_MAX_COPIED_WINDOW];
  int8_t patch[OPBRIDGE_DSP_PAIR_MAX_COPIED_WINDOW];
  int8_t padded_filter[OPBRIDGE_DSP_PADDED_FILTER_BYTES];
  if (padded_depth != depth) {
    if (units * padded_depth > OPBRIDGE_DSP_PADDED_FILTER_BYTES) {
      return 0;
    }
    memset(padded_filter, 0, (size_t)(units * padded_depth));
    for (int32_t unit = 0; unit < units; ++unit) {
      memcpy(padded_filter + unit * padded_depth, filter + unit * depth, (size_t)depth);
    }
    memset(patch + depth, 0, (size_t)(padded_depth - depth));
    filter = padded_filter;
  }
  opbridge_dsp_pairs(params, input, filter, padded_depth / 4, windows, patch, output);
  return 1;
}

/* CONV_2D with an even number of output channels whose stage opbridge_dsp_pair2_* takes
 * (opbridge_folded_doubling_fits): output positions two at a time, their windows widened once and
 * read by every pair of units (opbridge_dsp_pairs). Input channels a multiple of 4 (windows of at
 * most OPBRIDGE_DSP_PAIR_MAX_WINDOW bytes) are widened tap by tap from the input; otherwise each
 * window (at most OPBRIDGE_DSP_PAIR_MAX_COPIED_WINDOW bytes) is copied first. 0 if the layer is
 * not of that kind. */
static int32_t opbridge_dsp_conv_pairs(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                       const int8_t *filter, int8_t *output) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t depth = fl->height * fl->width * in->channels;
  if (out->channels % 2 != 0 || !opbridge_folded_doubling_fits(&params->requantization, out->channels, depth)) {
    return 0;
  }
  if (in->channels % 4 == 0 && depth <= OPBRIDGE_DSP_PAIR_MAX_WINDOW) {
    opbridge_dsp_pairs_by_tap(params, input, filter, depth, output);
    return 1;
  }
  return depth <= OPBRIDGE_DSP_PAIR_MAX_COPIED_WINDOW &&
         opbridge_dsp_pairs_copied(params, input, filter, depth, output);
}
#endif

int32_t opbridge_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                   const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
#if OPBRIDGE_DSP_ASSEMBLY
  if (opbridge_dsp_conv_pairs(params, input, filter, output)) {
    return OPBRIDGE_STATUS_OK;
  }
#endif
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t filter_size = fl->height * fl->width * fl->channels;
  const int32_t assembly = opbridge_rows_assembly(&params->requantization, out->channels);
#if OPBRIDGE_DSP_ASSEMBLY
  /* Windows that overhang the input, copied with the zero point where they do, for the assembly. */
  int8_t border_window[OPBRIDGE_DSP_MAX_COPIED_BORDER_WINDOW];
  const int32_t copy_borders = assembly && filter_size % 4 == 0 && filter_size <= OPBRIDGE_DSP_MAX_COPIED_BORDER_WINDOW;
#endif
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * in->width * in->channels;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      const int32_t rows_inside = y_origin >= 0 && y_origin + (fl->height - 1) * params->dilation_height < in->height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        const int32_t inside = rows_inside && x_origin >= 0 &&
                               x_origin + (fl->width - 1) * params->dilation_width < in->width;
        if (inside && params->dilation_width == 1) {
          /* Each window row is one contiguous run of filter width x channels bytes. */
          opbridge_rows_units(image + (y_origin * in->width + x_origin) * in->channels, fl->height,
                              fl->width * in->channels, params->dilation_height * in->width * in->channels, filter,
                              out->channels, &params->requantization, assembly, output);
          output += out->channels;
          continue;
        }
#if OPBRIDGE_DSP_ASSEMBLY
        if (copy_borders) {
          opbridge_patch_gather(params, image, oy, ox, border_window);
          opbridge_rows_units(border_window, 1, filter_size, 0, filter, out->channels, &params->requantization,
                              assembly, output);
          output += out->channels;
          continue;
        }
#endif
        for (int32_t oc = 0; oc < out->channels; ++oc) {
          const int32_t acc = params->requantization.folded_bias[oc] +
                              opbridge_folded_window(params, image, filter + oc * filter_size, y_origin, x_origin);
          *output++ = opbridge_folded_output(acc, &params->requantization, oc);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_conv_2d_s8_folded_blocks(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                          const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_blocks_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded(params, input, filter, output);
}

int32_t opbridge_conv_2d_s8_folded_pairs(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                         const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pairs_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded(params, input, filter, output);
}

int32_t opbridge_conv_2d_s8_folded_pointwise_narrow(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pointwise_narrow_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded_pointwise(params, input, filter, output);
}

#if OPBRIDGE_DSP_ASSEMBLY
/* The unit records of opbridge_dsp_pointwise on the stack: 64 output channels a turn over 8 input
 * channels (32 bytes each), 42 over 16 (48 bytes). */
#define OPBRIDGE_DSP_POINTWISE_RECORD_BYTES 2048
/* The largest right shift whose output offset fits the rounding term: |R + (offset << r)| stays
 * below 2^30 for offsets of -128 to 127, so adding the rescaled sum (below 2^30) cannot wrap. */
#define OPBRIDGE_DSP_POINTWISE_MAX_SHIFT 22

/* One SMLAD operand of two weights, each doubled for the short stage: [2 low, 2 high] as int16. */
static inline int32_t opbridge_dsp_doubled_pair(int32_t low, int32_t high) {
  return (int32_t)((uint32_t)(uint16_t)(2 * low) | (uint32_t)(uint16_t)(2 * high) << 16);
}

/* Pairs [2 w0, 2 w2], [2 w1, 2 w3] of four weights (SXTB16's order), doubled for the short stage. */
static void opbridge_dsp_weight_pairs(const int8_t *w, int32_t *pairs) {
  pairs[0] = opbridge_dsp_doubled_pair(w[0], w[2]);
  pairs[1] = opbridge_dsp_doubled_pair(w[1], w[3]);
}

/* A 1x1 CONV_2D over 8 or 16 input channels, stride 1, unpadded, right shifts of 1 to 22 and
 * accumulators below 2^30 (opbridge_folded_doubling_fits), in assembly (opbridge_dsp_pointwise8_*,
 * opbridge_dsp_pointwise16_*), output channels in turns whose records fit the stack; 0 if the layer
 * is not of that kind. The patch form and the by-channel entry try it first. */
static int32_t opbridge_dsp_pointwise(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                      const int8_t *filter, int8_t *output) {
  const opbridge_dims *out = &params->output;
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t depth = params->input.channels;
  const int32_t units = out->channels;
  if (params->filter.height != 1 || params->filter.width != 1 || (depth != 8 && depth != 16) ||
      params->stride_height != 1 || params->stride_width != 1 || params->padding_height != 0 ||
      params->padding_width != 0 || out->height != params->input.height || out->width != params->input.width ||
      !opbridge_folded_doubling_fits(rq, units, depth)) {
    return 0;
  }
  for (int32_t c = 0; c < (rq->per_channel ? units : 1); ++c) {
    if (-rq->shifts[c] > OPBRIDGE_DSP_POINTWISE_MAX_SHIFT) {
      return 0;
    }
  }
  const int32_t full = opbridge_dsp_full_range(rq);
  void (*const kernel)(opbridge_dsp_pointwise_job *) =
      depth == 8 ? (full ? opbridge_dsp_pointwise8_full : opbridge_dsp_pointwise8_clamped)
                 : (full ? opbridge_dsp_pointwise16_full : opbridge_dsp_pointwise16_clamped);
  const int32_t record_words = depth / 2 + 4;
  const int32_t turn = OPBRIDGE_DSP_POINTWISE_RECORD_BYTES / (4 * record_words);
  int32_t records[OPBRIDGE_DSP_POINTWISE_RECORD_BYTES / 4];
  opbridge_dsp_pointwise_job job;
  job.activation_min = rq->activation_min;
  job.activation_max = rq->activation_max;
  for (int32_t first = 0; first < units; first += turn) {
    const int32_t count = units - first < turn ? units - first : turn;
    for (int32_t u = first; u < first + count; ++u) {
      const int8_t *w = filter + u * depth;
      int32_t *record = records + (u - first) * record_words;
      opbridge_dsp_weight_pairs(w, record);
      opbridge_dsp_weight_pairs(w + 4, record + 2);
      record[4] = 2 * rq->folded_bias[u];
      int32_t *stage = record + 5;
      if (depth == 16) {
        opbridge_dsp_weight_pairs(w + 8, record + 5);
        opbridge_dsp_weight_pairs(w + 12, record + 7);
        stage = record + 9;
      }
      const int32_t index = rq->per_channel ? u : 0;
      const int32_t right_shift = -rq->shifts[index];
      stage[0] = rq->multipliers[index];
      stage[1] = (int32_t)((UINT32_C(1) << (right_shift - 1)) + ((uint32_t)rq->output_offset << right_shift));
      stage[2] = right_shift;
    }
    job.units = records;
    job.units_end = records + count * record_words;
    job.input = input;
    job.output = output + first;
    job.positions = out->batches * out->height * out->width;
    job.output_skip = units - count;
    job.odd_units = count % 2;
    kernel(&job);
  }
  return 1;
}
#endif

/* The shape-specialised entry points check their precondition, as the Helium variant's do, then
 * share the general loop (the portable variant has one). */
int32_t opbridge_conv_2d_s8_folded_patch(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                         const int8_t *filter, int8_t *scratch, int8_t *output) {
  if (!opbridge_conv_patch_call_valid(params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
#if OPBRIDGE_DSP_ASSEMBLY
  if (opbridge_dsp_pointwise(params, input, filter, output) ||
      opbridge_dsp_conv_pairs(params, input, filter, output)) {
    return OPBRIDGE_STATUS_OK;
  }
#endif
  /* Each window copied (opbridge_patch_gather), then one row of fully connected units. */
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t window_bytes = fl->height * fl->width * in->channels;
  const int32_t assembly = opbridge_rows_assembly(&params->requantization, out->channels);
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * in->width * in->channels;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      for (int32_t ox = 0; ox < out->width; ++ox, output += out->channels) {
        opbridge_patch_gather(params, image, oy, ox, scratch);
        opbridge_rows_units(scratch, 1, window_bytes, 0, filter, out->channels, &params->requantization, assembly,
                            output);
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_depthwise_conv_2d_s8_folded_8_channels(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_8_channels_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_depthwise_conv_2d_s8_folded(params, input, filter, output);
}

int32_t opbridge_conv_2d_s8_folded_planes(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                          const int8_t *filter, int8_t *scratch, int8_t *output) {
  if (!opbridge_conv_planes_call_valid(params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded_patch(params, input, filter, scratch, output);
}

int32_t opbridge_conv_2d_s8_folded_pointwise_by_channel(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *scratch,
                                                        int8_t *output) {
  if (!opbridge_conv_pointwise_by_channel_call_valid(params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
#if OPBRIDGE_DSP_ASSEMBLY
  if (opbridge_dsp_pointwise(params, input, filter, output)) {
    return OPBRIDGE_STATUS_OK;
  }
#endif
  if (scratch != NULL) {
    return opbridge_conv_2d_s8_folded_patch(params, input, filter, scratch, output);
  }
  return opbridge_conv_2d_s8_folded(params, input, filter, output);
}

int32_t opbridge_depthwise_conv_2d_s8_folded_planar(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_planar_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_depthwise_conv_2d_s8_folded(params, input, filter, output);
}

int32_t opbridge_conv_2d_s8_folded_patch_rows(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                              const int8_t *filter, int8_t *scratch, int8_t *output) {
  if (!opbridge_conv_patch_rows_call_valid(params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded_patch(params, input, filter, scratch, output);
}

int32_t opbridge_conv_2d_s8_folded_pointwise(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pointwise_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded(params, input, filter, output);
}

#if OPBRIDGE_DSP_ASSEMBLY
/* The largest depthwise layer opbridge_dsp_depthwise takes: channels (the zero-point row is on the
 * stack) and taps (the tap table). */
#define OPBRIDGE_DSP_DEPTHWISE_MAX_CHANNELS 512
#define OPBRIDGE_DSP_DEPTHWISE_MAX_TAPS 64
/* Its widened weights on the stack (2 bytes per tap and channel): channels are taken in turns of
 * as many as fit (64 channels of a 3x3 filter, 8 of an 8x8 one), each turn building its weights
 * and stage constants (64 bytes per 4 channels) once. */
#define OPBRIDGE_DSP_DEPTHWISE_WEIGHT_BYTES 1152
#define OPBRIDGE_DSP_DEPTHWISE_TURN_CHANNELS 64

/* DEPTHWISE_CONV_2D of multiplier 1, channels a multiple of 4, right shifts of 1 to 31 and
 * accumulators below 2^30 (opbridge_folded_doubling_fits), in assembly
 * (opbridge_dsp_depthwise4_*); 0 if the layer is not of that kind (the caller's C loop runs). */
static int32_t opbridge_dsp_depthwise(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                      const int8_t *filter, int8_t *output) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t channels = in->channels;
  const int32_t tap_count = fl->height * fl->width;
  if (out->channels != channels || channels % 4 != 0 || channels > OPBRIDGE_DSP_DEPTHWISE_MAX_CHANNELS ||
      tap_count > OPBRIDGE_DSP_DEPTHWISE_MAX_TAPS || !opbridge_folded_doubling_fits(rq, channels, tap_count)) {
    return 0;
  }
  int32_t turn = OPBRIDGE_DSP_DEPTHWISE_WEIGHT_BYTES / (2 * tap_count) / 4 * 4;
  turn = turn < OPBRIDGE_DSP_DEPTHWISE_TURN_CHANNELS ? turn : OPBRIDGE_DSP_DEPTHWISE_TURN_CHANNELS;
  int8_t zero_point_row[OPBRIDGE_DSP_DEPTHWISE_MAX_CHANNELS];
  memset(zero_point_row, (int8_t)(-params->input_offset), (size_t)channels);
  const int8_t *taps[OPBRIDGE_DSP_DEPTHWISE_MAX_TAPS];
  int32_t weights[OPBRIDGE_DSP_DEPTHWISE_WEIGHT_BYTES / 4];
  opbridge_dsp_depthwise_stage stages[OPBRIDGE_DSP_DEPTHWISE_TURN_CHANNELS / 4];
  void (*const kernel)(opbridge_dsp_depthwise4_job *) =
      opbridge_dsp_full_range(rq) ? opbridge_dsp_depthwise4_full : opbridge_dsp_depthwise4_clamped;
  opbridge_dsp_depthwise4_job job;
  job.taps = taps;
  job.taps_end = taps + tap_count;
  job.weights = weights;
  job.stage = stages;
  job.output_offset = rq->output_offset;
  job.activation_min = rq->activation_min;
  job.activation_max = rq->activation_max;
  job.odd_taps = tap_count % 2;
  /* A window inside the input: its taps at fixed offsets from its first pixel. */
  int32_t tap_offsets[OPBRIDGE_DSP_DEPTHWISE_MAX_TAPS];
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    for (int32_t fx = 0; fx < fl->width; ++fx) {
      tap_offsets[fy * fl->width + fx] =
          (fy * params->dilation_height * in->width + fx * params->dilation_width) * channels;
    }
  }
  const int32_t y_span = (fl->height - 1) * params->dilation_height;
  const int32_t x_span = (fl->width - 1) * params->dilation_width;
  for (int32_t first = 0; first < channels; first += turn) {
    const int32_t turn_channels = channels - first < turn ? channels - first : turn;
    /* Per group of 4 channels, per tap: [w2, w0] and [w3, w1] as int16 pairs, doubled (as the bias)
     * so the sums are the doubled accumulator the stage multiplies. */
    int32_t *word = weights;
    for (int32_t group = first; group < first + turn_channels; group += 4) {
      for (int32_t t = 0; t < tap_count; ++t, word += 2) {
        opbridge_dsp_weight_pairs(filter + t * channels + group, word);
      }
      opbridge_dsp_depthwise_stage *stage = &stages[(group - first) / 4];
      for (int32_t k = 0; k < 4; ++k) {
        const int32_t index = rq->per_channel ? group + k : 0;
        const int32_t right_shift = -rq->shifts[index];
        stage->bias[k] = 2 * rq->folded_bias[group + k];
        stage->constants[k][0] = rq->multipliers[index];
        stage->constants[k][1] = (int32_t)(UINT32_C(1) << (right_shift - 1));
        stage->constants[k][2] = right_shift;
      }
    }
    job.channel = first;
    int8_t *position_output = output + first;
    for (int32_t b = 0; b < out->batches; ++b) {
      const int8_t *image = input + b * in->height * in->width * channels;
      for (int32_t oy = 0; oy < out->height; ++oy) {
        const int32_t y_origin = oy * params->stride_height - params->padding_height;
        for (int32_t ox = 0; ox < out->width; ++ox, position_output += channels) {
          const int32_t x_origin = ox * params->stride_width - params->padding_width;
          if (y_origin >= 0 && y_origin + y_span < in->height && x_origin >= 0 && x_origin + x_span < in->width) {
            const int8_t *pixel = image + (y_origin * in->width + x_origin) * channels;
            for (int32_t t = 0; t < tap_count; ++t) {
              taps[t] = pixel + tap_offsets[t];
            }
          } else {
            const int8_t **tap = taps;
            for (int32_t fy = 0; fy < fl->height; ++fy) {
              const int32_t iy = y_origin + fy * params->dilation_height;
              for (int32_t fx = 0; fx < fl->width; ++fx) {
                const int32_t ix = x_origin + fx * params->dilation_width;
                const int32_t inside = iy >= 0 && iy < in->height && ix >= 0 && ix < in->width;
                *tap++ = inside ? image + (iy * in->width + ix) * channels : zero_point_row;
              }
            }
          }
          job.output = position_output;
          job.groups = turn_channels / 4; /* the kernel counts it down */
          kernel(&job);
        }
      }
    }
  }
  return 1;
}

/* Filters up to 8 wide and high (four weight pairs a row: the assembly's registers). */
#define OPBRIDGE_DSP_PLANE_MAX_FILTER 8
/* The stack the planes take: four channels' rings of filter-height rows, and one row of the zero point. */
#define OPBRIDGE_DSP_PLANE_BYTES 4096

/* The plane kernels by stride - 1, pairs per window row - 2, and clamped. */
static void (*const opbridge_dsp_plane_kernels[2][3][2])(opbridge_dsp_plane_job *) = {
    {{opbridge_dsp_plane_s1_w2_full, opbridge_dsp_plane_s1_w2_clamped},
     {opbridge_dsp_plane_s1_w3_full, opbridge_dsp_plane_s1_w3_clamped},
     {opbridge_dsp_plane_s1_w4_full, opbridge_dsp_plane_s1_w4_clamped}},
    {{opbridge_dsp_plane_s2_w2_full, opbridge_dsp_plane_s2_w2_clamped},
     {opbridge_dsp_plane_s2_w3_full, opbridge_dsp_plane_s2_w3_clamped},
     {opbridge_dsp_plane_s2_w4_full, opbridge_dsp_plane_s2_w4_clamped}},
};

/* Which of the two depthwise paths of the DSP variant costs fewer instructions on a layer, from
 * what each spends (counted in the assembly, per four channels): the planes, per output row of a
 * channel, a group of four positions per window row 6 instructions, the plane words' loads and
 * 4 SMLADs per weight pair, then 48 for the group's sums and stage; 30 for the row's job and call;
 * and 10 per input position copied to widen four channels' rows. The tap table, per position 9 per
 * tap (four channels) and 52 for the stage and the group; (3 per tap + 20) for the position's table,
 * shared by every group of channels. The planes lose where the windows step by 2 over many
 * channels (their rows are copied for few outputs) and on rows of 5 positions (a second group of
 * four computes three of them again). */
static int32_t opbridge_dsp_depthwise_planar_pays(const opbridge_conv_s8_folded_params *params) {
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t taps = fl->height * fl->width;
  const int32_t words = (fl->width + 1) / 2;
  const int32_t loads = params->stride_width == 2 ? 3 + words : 2 * words + 2;
  const int32_t groups = (out->width + 3) / 4;
  const int32_t rows_per_output_row = fl->height < params->stride_height ? fl->height : params->stride_height;
  const int32_t copied_rows = out->height * rows_per_output_row < params->input.height
                                  ? out->height * rows_per_output_row
                                  : params->input.height;
  const int32_t planes = 4 * out->height * (groups * (fl->height * (6 + loads + 4 * words) + 48) + 30) +
                         10 * copied_rows * params->input.width;
  const int32_t table = out->height * out->width * (9 * taps + 52 + (3 * taps + 20) * 4 / params->input.channels);
  return planes < table;
}

/* The layers opbridge_dsp_depthwise_planar takes (before its accumulator and stack bounds). */
static int32_t opbridge_dsp_depthwise_planar_fits(const opbridge_conv_s8_folded_params *params) {
  const opbridge_dims *fl = &params->filter;
  return params->output.channels == params->input.channels && params->input.channels % 4 == 0 &&
         params->dilation_height == 1 && params->dilation_width == 1 &&
         (params->stride_width == 1 || params->stride_width == 2) && fl->height <= OPBRIDGE_DSP_PLANE_MAX_FILTER &&
         fl->width >= 3 && fl->width <= OPBRIDGE_DSP_PLANE_MAX_FILTER && params->output.width >= 4 &&
         opbridge_dsp_depthwise_planar_pays(params);
}

/* Int16 plane columns a layer's rows take: the padded input row, and as far as the last window's
 * last pair reads (`words` pairs from (out_w - 1) x stride), rounded up to whole words. */
static int32_t opbridge_dsp_plane_columns(const opbridge_conv_s8_folded_params *params, int32_t words) {
  const int32_t padded = params->padding_width + params->input.width;
  const int32_t reach = (params->output.width - 1) * params->stride_width + 2 * words;
  const int32_t columns = padded > reach ? padded : reach;
  return columns + (columns & 1);
}

/* Input row `row` of channels [first, first + 4) widened into four planes `columns` apart (each at
 * its padded column 0), two positions at a time: SXTB16 splits a position's four channels into
 * int16 pairs, and a pack of two positions' pairs is one word of a plane. */
static void opbridge_dsp_plane_copy_row(const int8_t *row, int32_t width, int32_t channels, int16_t *planes,
                                        int32_t columns) {
  int16_t *plane0 = planes;
  int16_t *plane1 = planes + columns;
  int16_t *plane2 = plane1 + columns;
  int16_t *plane3 = plane2 + columns;
  int32_t x = 0;
  for (; x + 2 <= width; x += 2, row += 2 * channels) {
    const uint32_t a = opbridge_load4(row);
    const uint32_t b = opbridge_load4(row + channels);
    const uint32_t a02 = (uint32_t)__sxtb16((int8x4_t)a), b02 = (uint32_t)__sxtb16((int8x4_t)b);
    const uint32_t a13 = (uint32_t)opbridge_odd_bytes(a), b13 = (uint32_t)opbridge_odd_bytes(b);
    const uint32_t words[4] = {(a02 & 0xFFFFu) | b02 << 16, (a13 & 0xFFFFu) | b13 << 16,
                               a02 >> 16 | (b02 & 0xFFFF0000u), a13 >> 16 | (b13 & 0xFFFF0000u)};
    memcpy(plane0 + x, &words[0], 4);
    memcpy(plane1 + x, &words[1], 4);
    memcpy(plane2 + x, &words[2], 4);
    memcpy(plane3 + x, &words[3], 4);
  }
  if (x < width) {
    plane0[x] = row[0];
    plane1[x] = row[1];
    plane2[x] = row[2];
    plane3[x] = row[3];
  }
}

/* DEPTHWISE_CONV_2D of multiplier 1 over int16 planes (opbridge_dsp_plane_*): four channels at a
 * time, each channel's input rows widened once into a ring of filter-height rows padded with the
 * input zero point, then each output row of each channel in groups of four positions (a row not a
 * whole number of groups ends with the group of its last four, which writes two to three outputs
 * again, unchanged). Channels a multiple of 4, no dilation, stride 1 or 2 along x, filters 3 to 8
 * wide and up to 8 high, output rows of 4 positions or more, right shifts of 1 to 31 and
 * accumulators below 2^30 (opbridge_folded_doubling_fits); 0 if the layer is not of that kind or
 * its rings do not fit. */
static int32_t opbridge_dsp_depthwise_planar(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t channels = in->channels;
  const int32_t words = (fl->width + 1) / 2;
  if (!opbridge_dsp_depthwise_planar_fits(params) ||
      !opbridge_folded_doubling_fits(rq, channels, fl->height * fl->width)) {
    return 0;
  }
  const int32_t columns = opbridge_dsp_plane_columns(params, words);
  const int32_t ring_rows = 4 * fl->height;
  if ((ring_rows + 1) * columns * 2 > OPBRIDGE_DSP_PLANE_BYTES) {
    return 0;
  }
  /* The rings (rows of channel k in slots k * fl->height ...), then the zero point's row; the
   * padding columns keep the zero point, row copies only write inside them. */
  int32_t ring_words[OPBRIDGE_DSP_PLANE_BYTES / 4];
  int16_t *const ring = (int16_t *)ring_words;
  const int16_t *const zero_point_row = ring + ring_rows * columns;
  for (int32_t i = 0; i < (ring_rows + 1) * columns; ++i) {
    ring[i] = (int16_t)(-params->input_offset);
  }
  /* Per channel of the four, per filter row, `words` pairs (the assembly's row steps are `words`). */
  int32_t weights[4][OPBRIDGE_DSP_PLANE_MAX_FILTER * OPBRIDGE_DSP_PLANE_MAX_FILTER / 2];
  const int16_t *rows[4][OPBRIDGE_DSP_PLANE_MAX_FILTER];
  opbridge_dsp_plane_job job;
  job.output_step = channels;
  job.output_offset = rq->output_offset;
  job.activation_min = rq->activation_min;
  job.activation_max = rq->activation_max;
  void (*const kernel)(opbridge_dsp_plane_job *) =
      opbridge_dsp_plane_kernels[params->stride_width - 1][words - 2][!opbridge_dsp_full_range(rq)];
  const int32_t whole_groups = out->width / 4;
  const int32_t last_group = out->width - 4; /* the last four positions, when the row is not whole groups */
  for (int32_t first = 0; first < channels; first += 4) {
    for (int32_t k = 0; k < 4; ++k) { /* doubled weight pairs along each filter row */
      for (int32_t fy = 0; fy < fl->height; ++fy) {
        for (int32_t j = 0; j < words; ++j) {
          const int8_t *w = filter + (fy * fl->width + 2 * j) * channels + first + k;
          weights[k][fy * words + j] = opbridge_dsp_doubled_pair(w[0], 2 * j + 1 < fl->width ? w[channels] : 0);
        }
      }
    }
    for (int32_t b = 0; b < out->batches; ++b) {
      const int8_t *image = input + b * in->height * in->width * channels + first;
      int32_t copied = -1; /* the last input row in the rings */
      for (int32_t oy = 0; oy < out->height; ++oy) {
        const int32_t y_origin = oy * params->stride_height - params->padding_height;
        for (int32_t fy = 0; fy < fl->height; ++fy) {
          const int32_t iy = y_origin + fy;
          if (iy < 0 || iy >= in->height) {
            for (int32_t k = 0; k < 4; ++k) {
              rows[k][fy] = zero_point_row;
            }
            continue;
          }
          /* A window's rows are consecutive input rows: each has its own slot, iy mod the height. */
          int16_t *slot = ring + (iy % fl->height) * columns;
          if (iy > copied) {
            opbridge_dsp_plane_copy_row(image + iy * in->width * channels, in->width, channels,
                                        slot + params->padding_width, fl->height * columns);
            copied = iy;
          }
          for (int32_t k = 0; k < 4; ++k) {
            rows[k][fy] = slot + k * fl->height * columns;
          }
        }
        int8_t *row_output = output + ((b * out->height + oy) * out->width) * channels + first;
        for (int32_t k = 0; k < 4; ++k) {
          const int32_t channel = first + k;
          const int32_t index = rq->per_channel ? channel : 0;
          const int32_t right_shift = -rq->shifts[index];
          job.rows = rows[k];
          job.rows_end = rows[k] + fl->height;
          job.weights = weights[k];
          job.bias = 2 * rq->folded_bias[channel];
          job.multiplier = rq->multipliers[index];
          job.round = (int32_t)(UINT32_C(1) << (right_shift - 1));
          job.shift = right_shift;
          job.output = row_output + k; /* rows of 4 positions or more: at least one whole group */
          job.column = 0;
          job.column_end = 8 * params->stride_width * whole_groups;
          kernel(&job);
          if (out->width % 4) {
            job.output = row_output + k + last_group * channels;
            job.column = 2 * last_group * params->stride_width;
            job.column_end = job.column + 8 * params->stride_width;
            kernel(&job);
          }
        }
      }
    }
  }
  return 1;
}
#endif

int32_t opbridge_depthwise_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_call_valid(params, input, filter, output, 0)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_depthwise_conv_2d_s8_folded_multiplier(params, input, filter, output);
}

int32_t opbridge_depthwise_conv_2d_s8_folded_multiplier(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_call_valid(params, input, filter, output, 1)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
#if OPBRIDGE_DSP_ASSEMBLY
  if (opbridge_dsp_depthwise_planar(params, input, filter, output) ||
      opbridge_dsp_depthwise(params, input, filter, output)) {
    return OPBRIDGE_STATUS_OK;
  }
#endif
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t depth_multiplier = out->channels / in->channels;
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * in->width * in->channels;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        /* Tap by tap over a chunk of channels; a tap outside the input reads the zero point, whose
         * product cancels the folded bias's share of it (TFLite Micro skips the tap). */
        for (int32_t first = 0; first < out->channels; first += OPBRIDGE_DEPTHWISE_CHUNK) {
          const int32_t count =
              out->channels - first < OPBRIDGE_DEPTHWISE_CHUNK ? out->channels - first : OPBRIDGE_DEPTHWISE_CHUNK;
          int32_t acc[OPBRIDGE_DEPTHWISE_CHUNK];
          for (int32_t k = 0; k < count; ++k) {
            acc[k] = params->requantization.folded_bias[first + k];
          }
          for (int32_t fy = 0; fy < fl->height; ++fy) {
            const int32_t iy = y_origin + fy * params->dilation_height;
            for (int32_t fx = 0; fx < fl->width; ++fx) {
              const int32_t ix = x_origin + fx * params->dilation_width;
              const int8_t *taps = filter + (fy * fl->width + fx) * out->channels + first;
              if (iy < 0 || iy >= in->height || ix < 0 || ix >= in->width) {
                for (int32_t k = 0; k < count; ++k) {
                  acc[k] -= params->input_offset * (int32_t)taps[k];
                }
              } else if (depth_multiplier == 1) {
                const int8_t *pixel = image + (iy * in->width + ix) * in->channels + first;
                for (int32_t k = 0; k < count; ++k) {
                  acc[k] += (int32_t)pixel[k] * (int32_t)taps[k];
                }
              } else {
                const int8_t *pixel = image + (iy * in->width + ix) * in->channels;
                for (int32_t k = 0; k < count; ++k) {
                  acc[k] += (int32_t)pixel[(first + k) / depth_multiplier] * (int32_t)taps[k];
                }
              }
            }
          }
          for (int32_t k = 0; k < count; ++k) {
            *output++ = opbridge_folded_output(acc[k], &params->requantization, first + k);
          }
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_fully_connected_s8_folded(const opbridge_fully_connected_s8_folded_params *params,
                                           const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t assembly = opbridge_rows_assembly(&params->requantization, params->output_depth);
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    opbridge_rows_units(input + batch * params->input_depth, 1, params->input_depth, 0, filter, params->output_depth,
                        &params->requantization, assembly, output + batch * params->output_depth);
  }
  return OPBRIDGE_STATUS_OK;
}

#if OPBRIDGE_DSP_WEIGHT_LAYOUT
/* Units whose stage constants (M, R, r) opbridge_dsp_fully_connected_layout builds at a time when
 * they differ per channel (768 bytes of stack). */
#define OPBRIDGE_DSP_FC_STAGE_UNITS 64

/* opbridge_fully_connected_s8_folded_dsp_layout in this variant: each batch's row widened into Q,
 * R words (opbridge_dsp_fc_pairs_job) on the stack, then the units two at a time. */
static void opbridge_dsp_fully_connected_layout(const opbridge_fully_connected_s8_folded_params *params,
                                                const int8_t *input, const int8_t *filter, int8_t *output) {
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  const opbridge_folded_requantization *rq = &params->requantization;
  int32_t widened[OPBRIDGE_DSP_LAYOUT_MAX_DEPTH / 2];
  int32_t constants[OPBRIDGE_DSP_FC_STAGE_UNITS * 3];
  const int16x2_t odd_offsets = 0x007F007F;
  void (*const kernel)(opbridge_dsp_fc_pairs_job *) =
      opbridge_dsp_full_range(rq) ? opbridge_dsp_fc_pairs_full : opbridge_dsp_fc_pairs_clamped;
  opbridge_dsp_fc_pairs_job job;
  job.inputs = widened;
  job.input_bytes = 2 * depth;
  job.depth = depth;
  job.output_offset = rq->output_offset;
  job.activation_min = rq->activation_min;
  job.activation_max = rq->activation_max;
  job.odd_steps = (depth / 8) % 2;
  job.constants_step = rq->per_channel ? 12 : 0;
  const int32_t turn_units = rq->per_channel ? OPBRIDGE_DSP_FC_STAGE_UNITS : units;
  for (int32_t first = 0; first < units; first += turn_units) {
    const int32_t turn = units - first < turn_units ? units - first : turn_units;
    for (int32_t u = 0; u < (rq->per_channel ? turn : 1); ++u) {
      const int32_t right_shift = -rq->shifts[rq->per_channel ? first + u : 0];
      constants[3 * u] = rq->multipliers[rq->per_channel ? first + u : 0];
      constants[3 * u + 1] = (int32_t)(UINT32_C(1) << (right_shift - 1));
      constants[3 * u + 2] = right_shift;
    }
    for (int32_t batch = 0; batch < params->batches; ++batch) {
      const int8_t *x = input + batch * depth;
      for (int32_t i = 0; i < depth / 4; ++i) {
        const uint32_t word = opbridge_load4(x + 4 * i);
        /* Q = [x3 - 127, x1 - 127]; R = [256 x2, 256 x0] - Q (halves without carries between them). */
        const int16x2_t q = __ssub16(opbridge_odd_bytes(word), odd_offsets);
        widened[2 * i] = q;
        widened[2 * i + 1] = __ssub16((int16x2_t)((word & 0x00FF00FFu) << 8), q);
      }
      job.w = (const int32_t *)(const void *)(filter + first * depth);
      job.bias = rq->folded_bias + first;
      job.constants = constants;
      job.output = output + batch * units + first;
      job.pairs = turn / 2;
      kernel(&job);
    }
  }
}
#endif

int32_t opbridge_fully_connected_s8_folded_dsp_layout(const opbridge_fully_connected_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_dsp_layout_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
#if OPBRIDGE_DSP_WEIGHT_LAYOUT
  if (!opbridge_folded_doubling_fits(&params->requantization, params->output_depth, 2 * params->input_depth)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  opbridge_dsp_fully_connected_layout(params, input, filter, output);
  return OPBRIDGE_STATUS_OK;
#else
  return opbridge_fully_connected_s8_folded(params, input, filter, output); /* a plain filter here */
#endif
}

int32_t opbridge_fully_connected_s8_folded_short(const opbridge_fully_connected_s8_folded_params *params,
                                                 const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_short_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_fully_connected_s8_folded(params, input, filter, output);
}

int32_t opbridge_add_s8_table(const opbridge_add_s8_table_params *params, const int8_t *input1,
                              const int8_t *input2, int8_t *output) {
  if (!opbridge_add_table_call_valid(params, input1, input2, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
#if OPBRIDGE_DSP_ASSEMBLY
  if (params->count > 0 && params->output_shift <= -1 && params->activation_min == -128 &&
      params->activation_max == 127) {
    const opbridge_dsp_add_job job = {input1,
                                      input2,
                                      output,
                                      params->count,
                                      params->input1_table + 128,
                                      params->input2_table + 128,
                                      params->output_multiplier,
                                      -params->output_shift - 1,
                                      params->output_offset};
    opbridge_dsp_add_full(&job);
    return OPBRIDGE_STATUS_OK;
  }
#endif
  const int32_t *table1 = params->input1_table + 128;
  const int32_t *table2 = params->input2_table + 128;
  for (int32_t i = 0; i < params->count; ++i) {
    const int32_t sum = table1[input1[i]] + table2[input2[i]];
    int32_t value = opbridge_rescale(sum, params->output_multiplier, params->output_shift);
    value += params->output_offset;
    value = value < params->activation_min ? params->activation_min : value;
    value = value > params->activation_max ? params->activation_max : value;
    output[i] = (int8_t)value;
  }
  return OPBRIDGE_STATUS_OK;
}

#endif /* OPBRIDGE_KERNELS_PORTABLE || OPBRIDGE_KERNELS_DSP */
