/* SPDX-License-Identifier: Apache-2.0 */
/* The folded int8 forms (opbridge_kernels_folded_s8.h) in C99: the portable variant (x86_64,
 * aarch64), the reference for the others, and the DSP variant (Cortex-M4), which is the same
 * code with its dot products in SMLAD pairs (opbridge_dot4). */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_PORTABLE || OPBRIDGE_KERNELS_DSP

#include <string.h>

#include "cc/kernels/opbridge_folded_internal.h"

#if OPBRIDGE_KERNELS_DSP
#include <arm_acle.h>

/* Four int8 values from any address (the M4 loads words unaligned; memcpy keeps C defined). */
static inline uint32_t opbridge_load4(const int8_t *bytes) {
  uint32_t word;
  memcpy(&word, bytes, sizeof(word));
  return word;
}

/* Bytes 1 and 3 of the word, sign-extended to int16 pairs: SXTB16 with its rotation, which GCC
 * does not fold from a C rotate (it spends a MOV on it). */
static inline int16x2_t opbridge_odd_bytes(uint32_t word) {
  int16x2_t pair;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(pair) : "r"(word));
  return pair;
}
#endif

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

/* All `units` outputs of one window whose `rows` rows of `run` contiguous bytes are `row_step`
 * apart in the input (weights: `rows * run` bytes per unit, contiguous): four units at a time. */
static void opbridge_rows_units(const int8_t *x, int32_t rows, int32_t run, int32_t row_step, const int8_t *filter,
                                int32_t units, const opbridge_folded_requantization *rq, int8_t *output) {
  const int32_t depth = rows * run;
  int32_t unit = 0;
  for (; unit + 4 <= units; unit += 4) {
    int32_t acc[4] = {rq->folded_bias[unit], rq->folded_bias[unit + 1], rq->folded_bias[unit + 2],
                      rq->folded_bias[unit + 3]};
    const int8_t *w = filter + unit * depth;
    for (int32_t r = 0; r < rows; ++r) {
      opbridge_dot4(x + r * row_step, w + r * run, depth, run, acc);
    }
    for (int32_t k = 0; k < 4; ++k) {
      output[unit + k] = opbridge_folded_output(acc[k], rq, unit + k);
    }
  }
  for (; unit < units; ++unit) {
    int32_t acc = rq->folded_bias[unit];
    for (int32_t r = 0; r < rows; ++r) {
      acc += opbridge_dot1(x + r * row_step, filter + unit * depth + r * run, run);
    }
    output[unit] = opbridge_folded_output(acc, rq, unit);
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

int32_t opbridge_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                   const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_call_valid(params, input, filter, output)) {
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
      const int32_t rows_inside = y_origin >= 0 && y_origin + (fl->height - 1) * params->dilation_height < in->height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        const int32_t inside = rows_inside && x_origin >= 0 &&
                               x_origin + (fl->width - 1) * params->dilation_width < in->width;
        if (inside && params->dilation_width == 1) {
          /* Each window row is one contiguous run of filter width x channels bytes. */
          opbridge_rows_units(image + (y_origin * in->width + x_origin) * in->channels, fl->height,
                              fl->width * in->channels, params->dilation_height * in->width * in->channels, filter,
                              out->channels, &params->requantization, output);
          output += out->channels;
          continue;
        }
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

int32_t opbridge_conv_2d_s8_folded_pointwise_narrow(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pointwise_narrow_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded_pointwise(params, input, filter, output);
}

/* The shape-specialised entry points check their precondition, as the Helium variant's do, then
 * share the general loop (the portable variant has one). */
int32_t opbridge_conv_2d_s8_folded_patch(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                         const int8_t *filter, int8_t *scratch, int8_t *output) {
  if (!opbridge_conv_patch_call_valid(params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  /* Each window copied with the input zero point where it overhangs the input (whose products
   * cancel the folded bias's share of those taps), then one row of fully connected units. */
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int8_t zero_point = (int8_t)(-params->input_offset);
  const int32_t window_bytes = fl->height * fl->width * in->channels;
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * in->width * in->channels;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t ox = 0; ox < out->width; ++ox, output += out->channels) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        int8_t *patch = scratch;
        for (int32_t fy = 0; fy < fl->height; ++fy) {
          const int32_t iy = y_origin + fy * params->dilation_height;
          for (int32_t fx = 0; fx < fl->width; ++fx, patch += in->channels) {
            const int32_t ix = x_origin + fx * params->dilation_width;
            if (iy >= 0 && iy < in->height && ix >= 0 && ix < in->width) {
              memcpy(patch, image + (iy * in->width + ix) * in->channels, (size_t)in->channels);
            } else {
              memset(patch, zero_point, (size_t)in->channels);
            }
          }
        }
        opbridge_rows_units(scratch, 1, window_bytes, 0, filter, out->channels, &params->requantization, output);
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_conv_2d_s8_folded_pointwise(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pointwise_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_2d_s8_folded(params, input, filter, output);
}

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
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    opbridge_rows_units(input + batch * params->input_depth, 1, params->input_depth, 0, filter, params->output_depth,
                        &params->requantization, output + batch * params->output_depth);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_add_s8_table(const opbridge_add_s8_table_params *params, const int8_t *input1,
                              const int8_t *input2, int8_t *output) {
  if (!opbridge_add_table_call_valid(params, input1, input2, output)) {
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

#endif /* OPBRIDGE_KERNELS_PORTABLE || OPBRIDGE_KERNELS_DSP */
