/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The folded int8 forms (opbridge_kernels_folded_s8.h), Helium (MVE) variant for the Cortex-M55.
 *
 * Dot products: VMLADAVA.S8 multiplies 16 int8 pairs and adds them to a
 * scalar accumulator; four output channels (four weight rows) share each
 * 16-byte input load. Loops run over whole 16-byte blocks without
 * predication (GCC 12 compiles those to DLS/LE loops), then one predicated
 * block for the rest.
 *
 * Output stage, four channels at once, equal to
 * opbridge_multiply_by_quantized_multiplier: VSHL (wrapping, as TFLite's
 * int32 shift), VQRDMULH (rounds exactly as gemmlowp's
 * SaturatingRoundingDoublingHighMul), then VRSHL by the negative shift,
 * which rounds halves up, after subtracting 1 from negative values so that
 * halves round away from zero as RoundingDivideByPOT does.
 *
 * Alignment: the only word loads read int32 arrays (bias, multipliers,
 * shifts) at multiples of 4 elements; every int8 load is a byte load,
 * which the architecture allows at any address.
 */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include <arm_mve.h>

#include "cc/kernels/opbridge_folded_internal.h"

/* The output stage's constants for four channels (offset and clamp bounds stay scalars: the
 * vector registers are few, and VADD and VMAX/VMIN take them from a general register). */
typedef struct {
  int32x4_t bias;
  int32x4_t multiplier;
  int32x4_t left;  /* max(shift, 0) */
  int32x4_t right; /* min(shift, 0) */
  int32_t offset;
  int32_t minimum;
  int32_t maximum;
} opbridge_lanes_output;

static inline opbridge_lanes_output opbridge_load_output(const opbridge_folded_requantization *rq, int32_t channel,
                                                         mve_pred16_t lanes) {
  opbridge_lanes_output stage;
  int32x4_t shift;
  stage.bias = vldrwq_z_s32(rq->folded_bias + channel, lanes);
  if (rq->per_channel) {
    stage.multiplier = vldrwq_z_s32(rq->multipliers + channel, lanes);
    shift = vldrwq_z_s32(rq->shifts + channel, lanes);
  } else {
    stage.multiplier = vdupq_n_s32(rq->multipliers[0]);
    shift = vdupq_n_s32(rq->shifts[0]);
  }
  stage.left = vmaxq_s32(shift, vdupq_n_s32(0));
  stage.right = vminq_s32(shift, vdupq_n_s32(0));
  stage.offset = rq->output_offset;
  stage.minimum = rq->activation_min;
  stage.maximum = rq->activation_max;
  return stage;
}

/* acc (bias not yet added) -> four int8 values in int32 lanes. */
static inline int32x4_t opbridge_lanes_requantize(int32x4_t acc, const opbridge_lanes_output *stage) {
  acc = vaddq_s32(acc, stage->bias);
  acc = vshlq_s32(acc, stage->left);
  acc = vqrdmulhq_s32(acc, stage->multiplier);
  acc = vqaddq_s32(acc, vandq_s32(vshrq_n_s32(acc, 31), vshrq_n_s32(stage->right, 31)));
  acc = vrshlq_s32(acc, stage->right);
  acc = vaddq_n_s32(acc, stage->offset);
  return vminq_s32(vmaxq_s32(acc, vdupq_n_s32(stage->minimum)), vdupq_n_s32(stage->maximum));
}

static inline int32x4_t opbridge_lanes(int32_t a0, int32_t a1, int32_t a2, int32_t a3) {
  int32x4_t lanes = vdupq_n_s32(a0);
  lanes = vsetq_lane_s32(a1, lanes, 1);
  lanes = vsetq_lane_s32(a2, lanes, 2);
  return vsetq_lane_s32(a3, lanes, 3);
}

/* Four weight rows, `stride` bytes apart; rows past the last channel repeat it (their lanes are not stored). */
typedef struct {
  const int8_t *row[4];
} opbridge_rows4;

static inline opbridge_rows4 opbridge_weight_rows(const int8_t *filter, int32_t first, int32_t lanes,
                                                  int32_t stride) {
  opbridge_rows4 rows;
  for (int32_t k = 0; k < 4; ++k) {
    rows.row[k] = filter + (first + (k < lanes ? k : lanes - 1)) * stride;
  }
  return rows;
}

/* The loop of the dot products below: `lr` blocks of 16 bytes (entered by WLS or DLS, label 1),
 * each one load of the input and, for each of four weight rows, a load and a VMLADAVA.S8 into
 * its accumulator. Operands: x, w0..w3 (advanced), a0..a3 (even registers: constraint Te). */
#define OPBRIDGE_DOT4_BLOCKS                 \
  "1: vldrb.8 q0, [%[x]], #16\n"             \
  "   vldrb.8 q1, [%[w0]], #16\n"            \
  "   vmlava.s8 %[a0], q0, q1\n"             \
  "   vldrb.8 q2, [%[w1]], #16\n"            \
  "   vmlava.s8 %[a1], q0, q2\n"             \
  "   vldrb.8 q1, [%[w2]], #16\n"            \
  "   vmlava.s8 %[a2], q0, q1\n"             \
  "   vldrb.8 q2, [%[w3]], #16\n"            \
  "   vmlava.s8 %[a3], q0, q2\n"             \
  "   le      lr, 1b\n"

/* acc[k] += sum(x[i] * w_k[i]) for i < n, for the four rows w_k. The whole 16-byte blocks run
 * in a low-overhead loop written out (10 instructions per 64 products: GCC 12 spends 17 on the
 * same intrinsics, addressing from one induction variable); VMLADAVA needs even registers (Te). */
static inline void opbridge_dot4(const int8_t *x, const int8_t *w0, const int8_t *w1, const int8_t *w2,
                                 const int8_t *w3, int32_t n, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int32_t blocks = n >> 4;
  if (blocks > 0) {
    __asm__ volatile(
        "   wls     lr, %[blocks], 2f\n"
        OPBRIDGE_DOT4_BLOCKS
        "2:\n"
        : [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [a0] "+Te"(a0), [a1] "+Te"(a1),
          [a2] "+Te"(a2), [a3] "+Te"(a3)
        : [blocks] "r"(blocks)
        : "lr", "q0", "q1", "q2", "memory");
  }
  n &= 15;
  if (n > 0) {
    const mve_pred16_t p = vctp8q((uint32_t)n);
    const int8x16_t v = vldrbq_z_s8(x, p);
    a0 = vmladavaq_s8(a0, v, vldrbq_z_s8(w0, p));
    a1 = vmladavaq_s8(a1, v, vldrbq_z_s8(w1, p));
    a2 = vmladavaq_s8(a2, v, vldrbq_z_s8(w2, p));
    a3 = vmladavaq_s8(a3, v, vldrbq_z_s8(w3, p));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

/* acc[k] = sum over `runs` input runs of blocks x 16 bytes (run r at x + r * run_stride) times
 * the four weight rows w_k, which are contiguous over the runs: a whole window of four output
 * channels in one written-out loop nest (the loop over runs costs 4 instructions a run). */
static inline void opbridge_window4(const int8_t *x, int32_t run_stride, int32_t runs, int32_t blocks,
                                    const int8_t *w0, const int8_t *w1, const int8_t *w2, const int8_t *w3,
                                    int32_t acc[4]) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int32_t skip = run_stride - blocks * 16; /* from the end of a run to the next run */
  __asm__ volatile(
      "0: ldr     lr, %[blocks]\n"
      "   wls     lr, lr, 2f\n"
      OPBRIDGE_DOT4_BLOCKS
      "2: ldr     lr, %[skip]\n"
      "   add     %[x], %[x], lr\n"
      "   subs    %[runs], %[runs], #1\n"
      "   bne     0b\n"
      : [x] "+r"(x), [runs] "+r"(runs), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3),
        [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3)
      : [blocks] "m"(blocks), [skip] "m"(skip) /* from memory: the registers are spoken for */
      : "lr", "q0", "q1", "q2", "memory", "cc");
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

/* acc[k] -= input_offset * sum(w_k[i]) for i < n: taps outside the input (TFLite Micro skips them). */
static inline void opbridge_outside4(const int8_t *w0, const int8_t *w1, const int8_t *w2, const int8_t *w3,
                                     int32_t n, int32_t input_offset, int32_t acc[4]) {
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (; n > 0; n -= 16) {
    const mve_pred16_t p = vctp8q((uint32_t)n);
    s0 = vaddvaq_s8(s0, vldrbq_z_s8(w0, p));
    s1 = vaddvaq_s8(s1, vldrbq_z_s8(w1, p));
    s2 = vaddvaq_s8(s2, vldrbq_z_s8(w2, p));
    s3 = vaddvaq_s8(s3, vldrbq_z_s8(w3, p));
    w0 += 16;
    w1 += 16;
    w2 += 16;
    w3 += 16;
  }
  acc[0] -= input_offset * s0;
  acc[1] -= input_offset * s1;
  acc[2] -= input_offset * s2;
  acc[3] -= input_offset * s3;
}

/* Units per chunk of opbridge_units_whole: their sums wait on the stack (4 bytes each). */
#define OPBRIDGE_UNITS_CHUNK 64

/* sums[u] = sum(x * w_u) for `groups` groups of four consecutive weight rows of `depth` bytes
 * (depth a multiple of 16): the whole dot-product loop nest written out, 10 instructions per 64
 * products and about 14 per group of four rows. The output stage runs after it, vectorised. */
static inline void opbridge_rows_dot(const int8_t *x, const int8_t *w, int32_t depth, int32_t groups,
                                     int32_t *sums) {
  const int8_t *w1 = w + depth;
  const int8_t *w2 = w1 + depth;
  const int8_t *w3 = w2 + depth;
  const int32_t blocks = depth / 16;
  const int32_t *end = sums + 4 * groups;
  int32_t a0, a1, a2, a3;
  __asm__ volatile(
      "0: movs    %[a0], #0\n"
      "   movs    %[a1], #0\n"
      "   movs    %[a2], #0\n"
      "   movs    %[a3], #0\n"
      "   ldr     lr, %[blocks]\n"
      "   wls     lr, lr, 2f\n"
      OPBRIDGE_DOT4_BLOCKS
      "2: str     %[a0], [%[sums]], #4\n"
      "   str     %[a1], [%[sums]], #4\n"
      "   str     %[a2], [%[sums]], #4\n"
      "   str     %[a3], [%[sums]], #4\n"
      "   ldr     lr, %[depth]\n"
      "   sub     %[x], %[x], lr\n"
      "   mov     %[w0], %[w3]\n"
      "   add     %[w1], %[w0], lr\n"
      "   add     %[w2], %[w1], lr\n"
      "   add     %[w3], %[w2], lr\n"
      "   ldr     lr, %[end]\n"
      "   cmp     %[sums], lr\n"
      "   bne     0b\n"
      : [x] "+r"(x), [w0] "+r"(w), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [sums] "+r"(sums),
        [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3)
      : [blocks] "m"(blocks), [depth] "m"(depth), [end] "m"(end) /* from memory: registers are spoken for */
      : "lr", "q0", "q1", "q2", "memory", "cc");
}

/* opbridge_units for depth a multiple of 16 and units a multiple of 4: dot products of a chunk of
 * units first, then their output stage four at a time. */
static void __attribute__((noinline)) opbridge_units_whole(const int8_t *x, const int8_t *filter, int32_t depth,
                                                           int32_t units, const opbridge_folded_requantization *rq,
                                                           int8_t *output) {
  int32_t sums[OPBRIDGE_UNITS_CHUNK];
  const int32_t per_channel = rq->per_channel;
  const int32_t offset = rq->output_offset;
  const int32x4_t minimum = vdupq_n_s32(rq->activation_min);
  const int32x4_t maximum = vdupq_n_s32(rq->activation_max);
  const int32x4_t shared_multiplier = vdupq_n_s32(rq->multipliers[0]);
  const int32x4_t shared_shift = vdupq_n_s32(rq->shifts[0]);
  for (int32_t first = 0; first < units; first += OPBRIDGE_UNITS_CHUNK) {
    const int32_t count = units - first < OPBRIDGE_UNITS_CHUNK ? units - first : OPBRIDGE_UNITS_CHUNK;
    opbridge_rows_dot(x, filter + first * depth, depth, count / 4, sums);
    const int32_t *bias = rq->folded_bias + first;
    const int32_t *multipliers = rq->multipliers + first;
    const int32_t *shifts = rq->shifts + first;
    int8_t *destination = output + first;
    for (int32_t u = 0; u < count; u += 4) {
      int32x4_t acc = vaddq_s32(vld1q_s32(sums + u), vld1q_s32(bias + u));
      const int32x4_t multiplier = per_channel ? vld1q_s32(multipliers + u) : shared_multiplier;
      const int32x4_t shift = per_channel ? vld1q_s32(shifts + u) : shared_shift;
      const int32x4_t right = vminq_s32(shift, vdupq_n_s32(0));
      acc = vshlq_s32(acc, vmaxq_s32(shift, vdupq_n_s32(0)));
      acc = vqrdmulhq_s32(acc, multiplier);
      acc = vqaddq_s32(acc, vandq_s32(vshrq_n_s32(acc, 31), vshrq_n_s32(right, 31)));
      acc = vrshlq_s32(acc, right);
      acc = vaddq_n_s32(acc, offset);
      vstrbq_s32(destination + u, vminq_s32(vmaxq_s32(acc, minimum), maximum));
    }
  }
}

/* Every output channel (unit) of one input vector of `depth` contiguous bytes: four units at a
 * time, their weight rows consecutive in `filter`, each block's output stage loaded as it goes.
 * The shape of FULLY_CONNECTED, of 1x1 convolutions and of windows copied into scratch. Out of
 * line and with everything in locals, so that GCC keeps the loop's values in registers. */
static void __attribute__((noinline)) opbridge_units(const int8_t *x, const int8_t *filter, int32_t depth,
                                                     int32_t units, const opbridge_folded_requantization *rq,
                                                     int8_t *output) {
  const int32_t *bias = rq->folded_bias;
  const int32_t *multipliers = rq->multipliers;
  const int32_t *shifts = rq->shifts;
  const int32_t per_channel = rq->per_channel;
  const int32_t whole = depth % 16 == 0;
  opbridge_lanes_output stage;
  stage.multiplier = vdupq_n_s32(multipliers[0]);
  stage.left = vdupq_n_s32(shifts[0] > 0 ? shifts[0] : 0);
  stage.right = vdupq_n_s32(shifts[0] < 0 ? shifts[0] : 0);
  stage.offset = rq->output_offset;
  stage.minimum = rq->activation_min;
  stage.maximum = rq->activation_max;
  const int8_t *w0 = filter;
  for (int32_t unit = 0; unit < units; unit += 4, w0 += 4 * depth) {
    const int32_t lanes = units - unit < 4 ? units - unit : 4;
    const mve_pred16_t mask = vctp32q((uint32_t)lanes);
    const int8_t *w1 = lanes > 1 ? w0 + depth : w0;
    const int8_t *w2 = lanes > 2 ? w0 + 2 * depth : w0;
    const int8_t *w3 = lanes > 3 ? w0 + 3 * depth : w0;
    stage.bias = vldrwq_z_s32(bias + unit, mask);
    if (per_channel) {
      stage.multiplier = vldrwq_z_s32(multipliers + unit, mask);
      const int32x4_t shift = vldrwq_z_s32(shifts + unit, mask);
      stage.left = vmaxq_s32(shift, vdupq_n_s32(0));
      stage.right = vminq_s32(shift, vdupq_n_s32(0));
    }
    int32_t acc[4] = {0, 0, 0, 0};
    if (whole) {
      opbridge_window4(x, depth, 1, depth / 16, w0, w1, w2, w3, acc);
    } else {
      opbridge_dot4(x, w0, w1, w2, w3, depth, acc);
    }
    const int32x4_t sums = opbridge_lanes(acc[0], acc[1], acc[2], acc[3]);
    vstrbq_p_s32(output + unit, opbridge_lanes_requantize(sums, &stage), mask);
  }
}

/* Taps along a window row: `group` taps contiguous in memory (the whole row when the
 * dilation along x is 1, else one), `groups` of them. */
typedef struct {
  int32_t group;
  int32_t groups;
} opbridge_row_groups;

static inline opbridge_row_groups opbridge_groups(const opbridge_conv_s8_folded_params *params) {
  opbridge_row_groups groups;
  groups.group = params->dilation_width == 1 ? params->filter.width : 1;
  groups.groups = params->dilation_width == 1 ? 1 : params->filter.width;
  return groups;
}

/* One window of CONV_2D for four output channels, taps outside the input corrected. */
static int32x4_t __attribute__((noinline)) opbridge_conv_window4(const opbridge_conv_s8_folded_params *params, const int8_t *image,
                                              int32_t y_origin, int32_t x_origin, const opbridge_rows4 *rows,
                                              int32_t interior) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_row_groups groups = opbridge_groups(params);
  const int32_t channels = in->channels;
  const int32_t group_bytes = groups.group * channels;
  int32_t acc[4] = {0, 0, 0, 0};
  int32_t weights = 0; /* offset of the current group in each weight row */
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    const int32_t row_inside = iy >= 0 && iy < in->height;
    for (int32_t g = 0; g < groups.groups; ++g, weights += group_bytes) {
      const int32_t ix = x_origin + g * params->dilation_width; /* the group's first tap */
      const int8_t *w0 = rows->row[0] + weights;
      const int8_t *w1 = rows->row[1] + weights;
      const int8_t *w2 = rows->row[2] + weights;
      const int8_t *w3 = rows->row[3] + weights;
      if (interior) {
        opbridge_dot4(image + (iy * in->width + ix) * channels, w0, w1, w2, w3, group_bytes, acc);
        continue;
      }
      /* Taps [low, high) of the group are inside the input. */
      int32_t low = 0;
      int32_t high = 0;
      if (row_inside) {
        low = ix < 0 ? -ix : 0;
        low = low < groups.group ? low : groups.group; /* a group wholly left of the input */
        high = in->width - ix < groups.group ? in->width - ix : groups.group;
        high = high < low ? low : high;
      }
      if (high > low) {
        opbridge_dot4(image + (iy * in->width + ix + low) * channels, w0 + low * channels, w1 + low * channels,
                      w2 + low * channels, w3 + low * channels, (high - low) * channels, acc);
      }
      opbridge_outside4(w0, w1, w2, w3, low * channels, params->input_offset, acc);
      const int32_t after = high * channels;
      opbridge_outside4(w0 + after, w1 + after, w2 + after, w3 + after, group_bytes - after, params->input_offset,
                        acc);
    }
  }
  return opbridge_lanes(acc[0], acc[1], acc[2], acc[3]);
}

/* Copies the window at (y_origin, x_origin) into `patch`, input zero point where it overhangs
 * the input: (zero point + input_offset) * weight is 0, as a skipped tap. */
static void __attribute__((noinline)) opbridge_copy_window(const opbridge_conv_s8_folded_params *params, const int8_t *image,
                                 int32_t y_origin, int32_t x_origin, int8_t *patch) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const int32_t channels = in->channels;
  const int8x16_t zero_points = vdupq_n_s8((int8_t)(-params->input_offset));
  /* Rows of taps (dilation 1) or taps (dilated) under 16 bytes are one predicated load and store
   * each; longer taps go 16 bytes at a time. */
  const int32_t row_bytes = fl->width * channels;
  const int32_t whole_rows = params->dilation_width == 1 && x_origin >= 0 && x_origin + fl->width <= in->width;
  const mve_pred16_t row_lanes = vctp8q((uint32_t)row_bytes);
  const mve_pred16_t tap_lanes = vctp8q((uint32_t)channels);
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    const int32_t row_inside = iy >= 0 && iy < in->height;
    if (whole_rows && row_bytes < 16) {
      const int8x16_t values =
          row_inside ? vldrbq_z_s8(image + (iy * in->width + x_origin) * channels, row_lanes) : zero_points;
      vstrbq_p_s8(patch, values, row_lanes);
      patch += row_bytes;
      continue;
    }
    for (int32_t fx = 0; fx < fl->width; ++fx) {
      const int32_t ix = x_origin + fx * params->dilation_width;
      const int32_t inside = row_inside && ix >= 0 && ix < in->width;
      if (channels < 16) {
        const int8x16_t values = inside ? vldrbq_z_s8(image + (iy * in->width + ix) * channels, tap_lanes) : zero_points;
        vstrbq_p_s8(patch, values, tap_lanes);
        patch += channels;
        continue;
      }
      const int8_t *pixel = inside ? image + (iy * in->width + ix) * channels : NULL;
      for (int32_t c = 0; c < channels; c += 16) {
        const mve_pred16_t lanes = vctp8q((uint32_t)(channels - c));
        vstrbq_p_s8(patch + c, inside ? vldrbq_z_s8(pixel + c, lanes) : zero_points, lanes);
      }
      patch += channels;
    }
  }
}

/* The largest window (filter height x width x channels bytes) whose overhanging copies CONV_2D
 * makes on the stack: 3x3x64, resnet's largest. */
#define OPBRIDGE_CONV_PATCH_BYTES 576

/* A run of output positions of one row whose windows lie inside the input, for four output
 * channels, with the window's rows contiguous (dilation 1 along x). Kept out of line: with the
 * border paths around it, GCC would spill the accumulators and pointers of this hot loop. */
typedef struct {
  const int8_t *origin;     /* the first window's first tap */
  int32_t origin_step;      /* bytes between consecutive windows (stride x channels) */
  int32_t count;            /* windows */
  int32_t window_rows;      /* filter height */
  int32_t run;              /* bytes of a window row (filter width x channels) */
  int32_t row_step;         /* bytes between window rows in the input */
  const opbridge_rows4 *rows;
  int8_t *destination;
  int32_t destination_step; /* output channels */
  mve_pred16_t mask;
} opbridge_conv_segment;

static void __attribute__((noinline)) opbridge_conv_interior_segment(const opbridge_conv_segment *segment,
                                                                     const opbridge_lanes_output *stage) {
  const opbridge_lanes_output constants = *stage;
  const int8_t *origin = segment->origin;
  int8_t *destination = segment->destination;
  const int8_t *w0 = segment->rows->row[0];
  const int8_t *w1 = segment->rows->row[1];
  const int8_t *w2 = segment->rows->row[2];
  const int8_t *w3 = segment->rows->row[3];
  const int32_t run = segment->run;
  const int32_t row_step = segment->row_step;
  const int32_t window_rows = segment->window_rows;
  const int32_t origin_step = segment->origin_step;
  const int32_t destination_step = segment->destination_step;
  const mve_pred16_t mask = segment->mask;
  const int32_t whole_blocks = run % 16 == 0;
  for (int32_t i = segment->count; i > 0; --i) {
    int32_t sums[4] = {0, 0, 0, 0};
    if (whole_blocks) {
      opbridge_window4(origin, row_step, window_rows, run / 16, w0, w1, w2, w3, sums);
    } else {
      const int8_t *x = origin;
      for (int32_t fy = 0, w = 0; fy < window_rows; ++fy, x += row_step, w += run) {
        opbridge_dot4(x, w0 + w, w1 + w, w2 + w, w3 + w, run, sums);
      }
    }
    const int32x4_t acc = opbridge_lanes(sums[0], sums[1], sums[2], sums[3]);
    vstrbq_p_s32(destination, opbridge_lanes_requantize(acc, &constants), mask);
    origin += origin_step;
    destination += destination_step;
  }
}

int32_t opbridge_conv_2d_s8_folded_patch(const opbridge_conv_s8_folded_params *caller_params, const int8_t *input,
                                         const int8_t *filter, int8_t *scratch, int8_t *output) {
  if (!opbridge_conv_patch_call_valid(caller_params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_conv_s8_folded_params local_params = *caller_params;
  const opbridge_conv_s8_folded_params *params = &local_params;
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t window_bytes = fl->height * fl->width * fl->channels;
  const int32_t image_bytes = in->height * in->width * in->channels;
  for (int32_t b = 0; b < out->batches; ++b) {
    for (int32_t oy = 0; oy < out->height; ++oy) {
      for (int32_t ox = 0; ox < out->width; ++ox) {
        opbridge_copy_window(params, input + b * image_bytes, oy * params->stride_height - params->padding_height,
                             ox * params->stride_width - params->padding_width, scratch);
        opbridge_units(scratch, filter, window_bytes, out->channels, &params->requantization, output);
        output += out->channels;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_conv_2d_s8_folded_pointwise(const opbridge_conv_s8_folded_params *caller_params,
                                             const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pointwise_call_valid(caller_params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_conv_s8_folded_params local_params = *caller_params;
  const opbridge_conv_s8_folded_params *params = &local_params;
  const opbridge_dims *in = &params->input;
  const opbridge_dims *out = &params->output;
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t image_bytes = in->height * in->width * in->channels;
  const int32_t channels = out->channels;
  const int32_t whole_units = channels / 4 * 4;
  opbridge_folded_requantization rest = *rq;
  rest.folded_bias += whole_units;
  rest.multipliers += rest.per_channel ? whole_units : 0;
  rest.shifts += rest.per_channel ? whole_units : 0;
  for (int32_t b = 0; b < out->batches; ++b) {
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int8_t *row = input + b * image_bytes + oy * params->stride_height * in->width * in->channels;
      for (int32_t ox = 0; ox < out->width; ++ox, output += channels) {
        const int8_t *x = row + ox * params->stride_width * in->channels;
        if (whole_units > 0) {
          opbridge_units_whole(x, filter, in->channels, whole_units, rq, output);
        }
        if (whole_units < channels) {
          opbridge_units(x, filter + whole_units * in->channels, in->channels, channels - whole_units, &rest,
                         output + whole_units);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *caller_params, const int8_t *input,
                                   const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_call_valid(caller_params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  /* A local copy: stores to the output could alias the caller's, and would force reloads. */
  const opbridge_conv_s8_folded_params local_params = *caller_params;
  const opbridge_conv_s8_folded_params *params = &local_params;
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t window_bytes = fl->height * fl->width * fl->channels;
  const int32_t image_bytes = in->height * in->width * in->channels;
  const int32_t channels = out->channels;
  /* Otherwise four output channels at a time over every position; the rows of the window are
   * read in place. Windows that overhang the input take the border path. */
  const int32_t run = fl->width * in->channels;                           /* bytes of a window row */
  const int32_t row_step = params->dilation_height * in->width * in->channels; /* between window rows */
  /* Output columns [first_inside, end_inside) have windows inside the input along x. */
  const int32_t x_span = (fl->width - 1) * params->dilation_width;
  const int32_t first_inside = (params->padding_width + params->stride_width - 1) / params->stride_width;
  const int32_t last_start = in->width - 1 - x_span + params->padding_width; /* largest inside x_origin + pad */
  int32_t end_inside = last_start < 0 ? 0 : last_start / params->stride_width + 1;
  end_inside = end_inside > out->width ? out->width : end_inside;
  /* Windows that overhang the input, when they are whole 16-byte blocks and fit the stack: copied
   * with the input zero point outside (its products cancel the folded bias's share of those taps),
   * then all channels at once as a fully connected row. */
  const int32_t patched_borders =
      params->dilation_width == 1 && window_bytes % 16 == 0 && window_bytes <= OPBRIDGE_CONV_PATCH_BYTES;
  if (patched_borders) {
    int8_t patch[OPBRIDGE_CONV_PATCH_BYTES];
    const int32_t whole_units = channels / 4 * 4;
    opbridge_folded_requantization rest = *rq;
    rest.folded_bias += whole_units;
    rest.multipliers += rest.per_channel ? whole_units : 0;
    rest.shifts += rest.per_channel ? whole_units : 0;
    for (int32_t b = 0; b < out->batches; ++b) {
      for (int32_t oy = 0; oy < out->height; ++oy) {
        const int32_t y_origin = oy * params->stride_height - params->padding_height;
        const int32_t rows_inside = y_origin >= 0 && y_origin + (fl->height - 1) * params->dilation_height < in->height;
        for (int32_t ox = 0; ox < out->width; ++ox) {
          if (rows_inside && ox >= first_inside && ox < end_inside) {
            continue; /* inside: the loop below */
          }
          int8_t *destination = output + ((b * out->height + oy) * out->width + ox) * channels;
          opbridge_copy_window(params, input + b * image_bytes, y_origin,
                               ox * params->stride_width - params->padding_width, patch);
          if (whole_units > 0) {
            opbridge_units_whole(patch, filter, window_bytes, whole_units, rq, destination);
          }
          if (whole_units < channels) {
            opbridge_units(patch, filter + whole_units * window_bytes, window_bytes, channels - whole_units, &rest,
                           destination + whole_units);
          }
        }
      }
    }
  }
  for (int32_t oc = 0; oc < channels; oc += 4) {
    const int32_t lanes = channels - oc < 4 ? channels - oc : 4;
    const mve_pred16_t mask = vctp32q((uint32_t)lanes);
    const opbridge_lanes_output stage = opbridge_load_output(rq, oc, mask);
    const opbridge_rows4 rows = opbridge_weight_rows(filter, oc, lanes, window_bytes);
    int8_t *destination = output + oc;
    for (int32_t b = 0; b < out->batches; ++b) {
      const int8_t *image = input + b * image_bytes;
      for (int32_t oy = 0; oy < out->height; ++oy) {
        const int32_t y_origin = oy * params->stride_height - params->padding_height;
        const int32_t y_last = y_origin + (fl->height - 1) * params->dilation_height;
        const int32_t rows_inside = y_origin >= 0 && y_last < in->height;
        for (int32_t ox = 0; ox < out->width;) {
          const int32_t x_origin = ox * params->stride_width - params->padding_width;
          if (rows_inside && ox >= first_inside && ox < end_inside && params->dilation_width == 1) {
            /* Every window from here to end_inside lies inside the input: one call for the run. */
            const opbridge_conv_segment segment = {
                image + (y_origin * in->width + x_origin) * in->channels,
                params->stride_width * in->channels,
                end_inside - ox,
                fl->height,
                run,
                row_step,
                &rows,
                destination,
                channels,
                mask,
            };
            opbridge_conv_interior_segment(&segment, &stage);
            destination += (end_inside - ox) * channels;
            ox = end_inside;
            continue;
          }
          if (patched_borders) { /* done above */
            destination += channels;
            ++ox;
            continue;
          }
          const int32_t x_last = x_origin + (fl->width - 1) * params->dilation_width;
          const int32_t interior = rows_inside && x_origin >= 0 && x_last < in->width;
          const int32x4_t acc = opbridge_conv_window4(params, image, y_origin, x_origin, &rows, interior);
          vstrbq_p_s32(destination, opbridge_lanes_requantize(acc, &stage), mask);
          destination += channels;
          ++ox;
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* The geometry of a depthwise window, copied out of the parameters once per call (stores to the
 * output could alias them otherwise, and the compiler would reload them on every tap). */
typedef struct {
  int32_t height;
  int32_t width;
  int32_t channels;
  int32_t filter_height;
  int32_t filter_width;
  int32_t tap_row_step; /* bytes between window rows in the input */
  int32_t tap_step;     /* bytes between taps along a row */
  int32_t input_offset;
} opbridge_depthwise_window;

/* sum(input * weight) of four channels over a window inside the input (blocks of 16 channels
 * take opbridge_depthwise_interior16: this serves the channels after the last whole one). */
static int32x4_t __attribute__((noinline)) opbridge_depthwise_interior(const opbridge_depthwise_window *window,
                                                                       const int8_t *origin, const int8_t *taps,
                                                                       mve_pred16_t mask) {
  int32x4_t acc = vdupq_n_s32(0);
  for (int32_t fy = 0; fy < window->filter_height; ++fy) {
    const int8_t *x = origin;
    for (int32_t fx = 0; fx < window->filter_width; ++fx) {
      const int32x4_t values = vldrbq_z_s32(x, mask);
      const int32x4_t weights = vldrbq_z_s32(taps, mask);
      acc = vaddq_s32(acc, vmulq_s32(values, weights));
      x += window->tap_step;
      taps += window->channels;
    }
    origin += window->tap_row_step;
  }
  return acc;
}

/* As opbridge_depthwise_interior for a window that overhangs the input: taps outside read
 * `zero_points` (the input zero point in every lane), whose products cancel the folded bias's
 * share of those taps, as TFLite Micro's skipping them does. */
static int32x4_t __attribute__((noinline)) opbridge_depthwise_border(const opbridge_depthwise_window *window, const int8_t *image,
                                                  int32_t y_origin, int32_t x_origin, int32_t dilation_height,
                                                  int32_t dilation_width, const int8_t *taps, mve_pred16_t mask,
                                                  const int8_t *zero_points) {
  int32x4_t acc = vdupq_n_s32(0);
  for (int32_t fy = 0; fy < window->filter_height; ++fy) {
    const int32_t iy = y_origin + fy * dilation_height;
    const int32_t row_inside = iy >= 0 && iy < window->height;
    const int8_t *row = image + iy * window->width * window->channels;
    for (int32_t fx = 0; fx < window->filter_width; ++fx, taps += window->channels) {
      const int32_t ix = x_origin + fx * dilation_width;
      const int8_t *x = row_inside && ix >= 0 && ix < window->width ? row + ix * window->channels : zero_points;
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_z_s32(x, mask), vldrbq_z_s32(taps, mask)));
    }
  }
  return acc;
}

/* Sixteen channels of a depthwise window inside the input. Per tap: one 16-byte load of inputs
 * and of weights, VMULLB/VMULLT.S8 (the 16 products as two int16 vectors: even and odd
 * channels), then VMOVLB/VMOVLT.S16 and VADD into four int32 accumulators, which hold channels
 * {0,4,8,12}, {2,6,10,14}, {1,5,9,13} and {3,7,11,15}: 15 instructions per 16 products. The
 * output stage reads its constants and writes the outputs in that order (gather, scatter). */
static void __attribute__((noinline)) opbridge_depthwise_interior16(const opbridge_depthwise_window *window,
                                                                    const int8_t *origin, const int8_t *taps,
                                                                    const opbridge_folded_requantization *rq,
                                                                    int32_t channel, int8_t *destination) {
  int32x4_t acc0 = vdupq_n_s32(0), acc1 = vdupq_n_s32(0), acc2 = vdupq_n_s32(0), acc3 = vdupq_n_s32(0);
  int32_t rows = window->filter_height;
  const int32_t columns = window->filter_width;
  const int32_t tap_step = window->tap_step;
  const int32_t weight_step = window->channels;
  const int32_t row_skip = window->tap_row_step - columns * tap_step;
  __asm__ volatile(
      "0: ldr     lr, %[columns]\n"
      "   dls     lr, lr\n"
      "1: vldrb.8 q0, [%[x]]\n"
      "   vldrb.8 q1, [%[w]]\n"
      "   add     %[x], %[x], %[tap_step]\n"
      "   add     %[w], %[w], %[weight_step]\n"
      "   vmullb.s8 q2, q0, q1\n"
      "   vmullt.s8 q3, q0, q1\n"
      "   vmovlb.s16 q0, q2\n"
      "   vadd.i32 %q[acc0], %q[acc0], q0\n"
      "   vmovlt.s16 q0, q2\n"
      "   vadd.i32 %q[acc1], %q[acc1], q0\n"
      "   vmovlb.s16 q0, q3\n"
      "   vadd.i32 %q[acc2], %q[acc2], q0\n"
      "   vmovlt.s16 q0, q3\n"
      "   vadd.i32 %q[acc3], %q[acc3], q0\n"
      "   le      lr, 1b\n"
      "   add     %[x], %[x], %[row_skip]\n"
      "   subs    %[rows], %[rows], #1\n"
      "   bne     0b\n"
      : [x] "+r"(origin), [w] "+r"(taps), [rows] "+r"(rows), [acc0] "+w"(acc0), [acc1] "+w"(acc1),
        [acc2] "+w"(acc2), [acc3] "+w"(acc3)
      : [columns] "m"(columns), [tap_step] "r"(tap_step), [weight_step] "r"(weight_step), [row_skip] "r"(row_skip)
      : "lr", "q0", "q1", "q2", "q3", "memory", "cc");
  const int32x4_t sums[4] = {acc0, acc1, acc2, acc3};
  static const int32_t first_channel[4] = {0, 2, 1, 3};
  const uint32x4_t offsets = vidupq_n_u32(0, 4);
  for (int32_t k = 0; k < 4; ++k) {
    const int32_t base = channel + first_channel[k];
    int32x4_t multiplier;
    int32x4_t shift;
    if (rq->per_channel) {
      multiplier = vldrwq_gather_shifted_offset_s32(rq->multipliers + base, offsets);
      shift = vldrwq_gather_shifted_offset_s32(rq->shifts + base, offsets);
    } else {
      multiplier = vdupq_n_s32(rq->multipliers[0]);
      shift = vdupq_n_s32(rq->shifts[0]);
    }
    const opbridge_lanes_output stage = {
        vldrwq_gather_shifted_offset_s32(rq->folded_bias + base, offsets),
        multiplier,
        vmaxq_s32(shift, vdupq_n_s32(0)),
        vminq_s32(shift, vdupq_n_s32(0)),
        rq->output_offset,
        rq->activation_min,
        rq->activation_max,
    };
    vstrbq_scatter_offset_s32(destination + first_channel[k], offsets, opbridge_lanes_requantize(sums[k], &stage));
  }
}

/* Windows of at most this many taps that overhang the input are copied (16 channels a tap, on
 * the stack: 144 bytes for 3x3) with the input zero point outside, then run as interior ones. */
#define OPBRIDGE_DEPTHWISE_PATCH_TAPS 9

static void __attribute__((noinline)) opbridge_depthwise_border16(
    const opbridge_depthwise_window *window, const int8_t *image, int32_t y_origin, int32_t x_origin,
    int32_t dilation_height, int32_t dilation_width, const int8_t *taps, const opbridge_folded_requantization *rq,
    int32_t channel, int8_t *destination) {
  int8_t patch[OPBRIDGE_DEPTHWISE_PATCH_TAPS * 16];
  const int8x16_t zero_points = vdupq_n_s8((int8_t)(-window->input_offset));
  int8_t *tap = patch;
  for (int32_t fy = 0; fy < window->filter_height; ++fy) {
    const int32_t iy = y_origin + fy * dilation_height;
    const int32_t row_inside = iy >= 0 && iy < window->height;
    for (int32_t fx = 0; fx < window->filter_width; ++fx, tap += 16) {
      const int32_t ix = x_origin + fx * dilation_width;
      if (row_inside && ix >= 0 && ix < window->width) {
        vst1q_s8(tap, vld1q_s8(image + (iy * window->width + ix) * window->channels));
      } else {
        vst1q_s8(tap, zero_points);
      }
    }
  }
  opbridge_depthwise_window copied = *window;
  copied.tap_step = 16;
  copied.tap_row_step = window->filter_width * 16;
  opbridge_depthwise_interior16(&copied, patch, taps, rq, channel, destination);
}

/* DEPTHWISE_CONV_2D with a depth multiplier above 1 (e.g. micro_speech's first layer, 1 input
 * channel, 8 outputs): four output channels at a time, their inputs (channel c / multiplier)
 * gathered; taps outside the input read the zero point, whose products cancel in the folded bias. */
int32_t opbridge_depthwise_conv_2d_s8_folded_multiplier(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_call_valid(params, input, filter, output, 1)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims in = params->input;
  const opbridge_dims out = params->output;
  const opbridge_dims fl = params->filter;
  const opbridge_folded_requantization rq = params->requantization;
  const int32_t multiplier = out.channels / in.channels;
  const int32_t stride_height = params->stride_height;
  const int32_t stride_width = params->stride_width;
  const int32_t dilation_height = params->dilation_height;
  const int32_t dilation_width = params->dilation_width;
  const int32_t image_bytes = in.height * in.width * in.channels;
  int8_t zero_points[16];
  for (int32_t i = 0; i < 16; ++i) {
    zero_points[i] = (int8_t)(-params->input_offset);
  }
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * image_bytes;
    for (int32_t c = 0; c < out.channels; c += 4) {
      const int32_t lanes = out.channels - c < 4 ? out.channels - c : 4;
      const mve_pred16_t mask = vctp32q((uint32_t)lanes);
      const opbridge_lanes_output stage = opbridge_load_output(&rq, c, mask);
      /* Lane k reads input channel (c + k) / multiplier: offsets from the first lane's. */
      const int32_t first_input = c / multiplier;
      uint32_t lane_offsets[4];
      for (int32_t k = 0; k < 4; ++k) {
        lane_offsets[k] = (uint32_t)((c + k) / multiplier - first_input);
      }
      const uint32x4_t offsets = vld1q_u32(lane_offsets);
      int8_t *destination = output + b * out.height * out.width * out.channels + c;
      for (int32_t oy = 0; oy < out.height; ++oy) {
        const int32_t y_origin = oy * stride_height - params->padding_height;
        for (int32_t ox = 0; ox < out.width; ++ox, destination += out.channels) {
          const int32_t x_origin = ox * stride_width - params->padding_width;
          int32x4_t acc = vdupq_n_s32(0);
          const int8_t *taps = filter + c;
          for (int32_t fy = 0; fy < fl.height; ++fy) {
            const int32_t iy = y_origin + fy * dilation_height;
            const int32_t row_inside = iy >= 0 && iy < in.height;
            for (int32_t fx = 0; fx < fl.width; ++fx, taps += out.channels) {
              const int32_t ix = x_origin + fx * dilation_width;
              const int8_t *x = row_inside && ix >= 0 && ix < in.width
                                    ? image + (iy * in.width + ix) * in.channels + first_input
                                    : zero_points;
              const int32x4_t values = vldrbq_gather_offset_z_s32(x, offsets, mask);
              acc = vaddq_s32(acc, vmulq_s32(values, vldrbq_z_s32(taps, mask)));
            }
          }
          vstrbq_p_s32(destination, opbridge_lanes_requantize(acc, &stage), mask);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_depthwise_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_call_valid(params, input, filter, output, 0)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims in = params->input;
  const opbridge_dims out = params->output;
  const opbridge_folded_requantization rq = params->requantization;
  const int32_t channels = in.channels;
  const int32_t stride_height = params->stride_height;
  const int32_t stride_width = params->stride_width;
  const int32_t dilation_height = params->dilation_height;
  const int32_t dilation_width = params->dilation_width;
  const int32_t padding_height = params->padding_height;
  const int32_t padding_width = params->padding_width;
  const opbridge_depthwise_window window = {
      in.height,
      in.width,
      channels,
      params->filter.height,
      params->filter.width,
      dilation_height * in.width * channels,
      dilation_width * channels,
      params->input_offset,
  };
  const int32_t image_bytes = in.height * in.width * channels;
  const int8_t zero_point = (int8_t)(-params->input_offset);
  const int8_t zero_points[4] = {zero_point, zero_point, zero_point, zero_point};
  const int32_t y_span = (window.filter_height - 1) * dilation_height;
  const int32_t x_span = (window.filter_width - 1) * dilation_width;
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * image_bytes;
    int8_t *batch_output = output + b * out.height * out.width * channels;
    /* Four channels at a time over every position, their output stage loaded once. */
    for (int32_t c = 0; c < channels; c += 4) {
      const int32_t lanes = channels - c < 4 ? channels - c : 4;
      /* Interior windows of whole blocks of 16 channels go 16 at a time, from the block's first 4. */
      const int32_t sixteen_block = c / 16 * 16;
      const int32_t sixteen = sixteen_block + 16 <= channels;
      const int32_t leads_block = c % 16 == 0;
      const mve_pred16_t mask = vctp32q((uint32_t)lanes);
      const opbridge_lanes_output stage = opbridge_load_output(&rq, c, mask);
      int8_t *destination = batch_output + c;
      for (int32_t oy = 0; oy < out.height; ++oy) {
        const int32_t y_origin = oy * stride_height - padding_height;
        const int32_t rows_inside = y_origin >= 0 && y_origin + y_span < in.height;
        for (int32_t ox = 0; ox < out.width; ++ox, destination += channels) {
          const int32_t x_origin = ox * stride_width - padding_width;
          int32x4_t acc;
          if (rows_inside && x_origin >= 0 && x_origin + x_span < in.width) {
            const int8_t *origin = image + (y_origin * in.width + x_origin) * channels + c;
            if (sixteen) {
              if (leads_block) {
                opbridge_depthwise_interior16(&window, origin, filter + c, &rq, c, destination);
              }
              continue;
            }
            acc = opbridge_depthwise_interior(&window, origin, filter + c, mask);
          } else if (sixteen && window.filter_height * window.filter_width <= OPBRIDGE_DEPTHWISE_PATCH_TAPS) {
            if (leads_block) {
              opbridge_depthwise_border16(&window, image + c, y_origin, x_origin, dilation_height, dilation_width,
                                          filter + c, &rq, c, destination);
            }
            continue;
          } else {
            acc = opbridge_depthwise_border(&window, image + c, y_origin, x_origin, dilation_height, dilation_width,
                                            filter + c, mask, zero_points);
          }
          vstrbq_p_s32(destination, opbridge_lanes_requantize(acc, &stage), mask);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_fully_connected_s8_folded(const opbridge_fully_connected_s8_folded_params *caller_params,
                                           const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_call_valid(caller_params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  /* A local copy: stores to the output could alias the caller's, and would force reloads. */
  const opbridge_fully_connected_s8_folded_params local_params = *caller_params;
  const opbridge_fully_connected_s8_folded_params *params = &local_params;
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  const int32_t whole_units = depth % 16 == 0 ? units / 4 * 4 : 0;
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    const int8_t *x = input + batch * depth;
    int8_t *row = output + batch * units;
    if (whole_units > 0) {
      opbridge_units_whole(x, filter, depth, whole_units, &params->requantization, row);
    }
    if (whole_units < units) {
      opbridge_folded_requantization rest = params->requantization;
      rest.folded_bias += whole_units;
      rest.multipliers += rest.per_channel ? whole_units : 0;
      rest.shifts += rest.per_channel ? whole_units : 0;
      opbridge_units(x, filter + whole_units * depth, depth, units - whole_units, &rest, row + whole_units);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* Four elements per step: widening byte loads, a gather from each table (the byte, sign-extended,
 * is the word offset from entry 128: the address arithmetic wraps to the entry below it), the
 * sum, then the output stage with the right shift only (ADD's output_shift is never positive). */
int32_t opbridge_add_s8_table(const opbridge_add_s8_table_params *caller_params, const int8_t *input1,
                              const int8_t *input2, int8_t *output) {
  if (!opbridge_add_table_call_valid(caller_params, input1, input2, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_add_s8_table_params params = *caller_params;
  const int32_t *table1 = params.input1_table + 128;
  const int32_t *table2 = params.input2_table + 128;
  const int32x4_t right = vdupq_n_s32(params.output_shift);
  const int32x4_t round_down = vdupq_n_s32(params.output_shift < 0 ? -1 : 0);
  const int32x4_t minimum = vdupq_n_s32(params.activation_min);
  const int32x4_t maximum = vdupq_n_s32(params.activation_max);
  for (int32_t remaining = params.count; remaining > 0; remaining -= 4) {
    const mve_pred16_t lanes = vctp32q((uint32_t)remaining);
    const uint32x4_t first = vreinterpretq_u32_s32(vldrbq_z_s32(input1, lanes));
    const uint32x4_t second = vreinterpretq_u32_s32(vldrbq_z_s32(input2, lanes));
    int32x4_t sum = vaddq_s32(vldrwq_gather_shifted_offset_z_s32(table1, first, lanes),
                              vldrwq_gather_shifted_offset_z_s32(table2, second, lanes));
    sum = vqrdmulhq_n_s32(sum, params.output_multiplier);
    sum = vqaddq_s32(sum, vandq_s32(vshrq_n_s32(sum, 31), round_down));
    sum = vrshlq_s32(sum, right);
    sum = vaddq_n_s32(sum, params.output_offset);
    vstrbq_p_s32(output, vminq_s32(vmaxq_s32(sum, minimum), maximum), lanes);
    input1 += 4;
    input2 += 4;
    output += 4;
  }
  return OPBRIDGE_STATUS_OK;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
