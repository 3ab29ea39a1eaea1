/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the Helium (MVE) variant of the folded int8 forms (opbridge_kernels_folded_s8.h) shares
 * between its files, one per form (docs/kernels.md); not part of the API. Included only when
 * OPBRIDGE_KERNELS_HELIUM.
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
#ifndef OPBRIDGE_FOLDED_HELIUM_INTERNAL_H_
#define OPBRIDGE_FOLDED_HELIUM_INTERNAL_H_

#include <arm_mve.h>
#include <stddef.h>

#include "cc/kernels/opbridge_folded_internal.h"
#include "cc/kernels/opbridge_kernel_variant.h"

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

/* One 16-byte block for four weight rows: one load of the input and, for each row, a load and a
 * VMLADAVA.S8 into its accumulator; the second and fourth rows load into `odd` (q1 or q2: the
 * loads alternate to keep one load ahead of its VMLADAVA where a register is spare). */
#define OPBRIDGE_DOT4_BLOCK_OF(x, w0, w1, w2, w3, a0, a1, a2, a3, odd) \
  "   vldrb.8 q0, [" x "], #16\n"                                      \
  "   vldrb.8 q1, [" w0 "], #16\n"                                     \
  "   vmlava.s8 " a0 ", q0, q1\n"                                      \
  "   vldrb.8 " odd ", [" w1 "], #16\n"                                \
  "   vmlava.s8 " a1 ", q0, " odd "\n"                                 \
  "   vldrb.8 q1, [" w2 "], #16\n"                                     \
  "   vmlava.s8 " a2 ", q0, q1\n"                                      \
  "   vldrb.8 " odd ", [" w3 "], #16\n"                                \
  "   vmlava.s8 " a3 ", q0, " odd "\n"
/* In inline assembly: operands x, w0..w3 (advanced), a0..a3 (even registers: constraint Te). */
#define OPBRIDGE_DOT4_BLOCK                                                                                 \
  OPBRIDGE_DOT4_BLOCK_OF("%[x]", "%[w0]", "%[w1]", "%[w2]", "%[w3]", "%[a0]", "%[a1]", "%[a2]", "%[a3]", "q2")

/* The loop of the dot products below: `lr` blocks (entered by WLS or DLS, label 1). */
#define OPBRIDGE_DOT4_BLOCKS "1:\n" OPBRIDGE_DOT4_BLOCK "   le      lr, 1b\n"

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

/* opbridge_lanes_requantize and opbridge_dot4 out of line, for the callers optimised for size
 * (OPBRIDGE_OPTIMIZE_FOR_SIZE: opbridge_units, opbridge_conv_window4 and the depthwise entry point),
 * which called them so when the forms were one file: inlined, they would only add flash. */
static __attribute__((noinline, unused)) int32x4_t
opbridge_lanes_requantize_outlined(int32x4_t acc, const opbridge_lanes_output *stage) {
  return opbridge_lanes_requantize(acc, stage);
}

static __attribute__((noinline, unused)) void opbridge_dot4_outlined(const int8_t *x, const int8_t *w0,
                                                                     const int8_t *w1, const int8_t *w2,
                                                                     const int8_t *w3, int32_t n, int32_t acc[4]) {
  opbridge_dot4(x, w0, w1, w2, w3, n, acc);
}

/* The loops several forms call, static: each file that calls them keeps its copy, so that GCC
 * inlines and optimises around them as it did when the forms were one file. */

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
static __attribute__((noinline, unused)) void opbridge_units_whole(const int8_t *x, const int8_t *filter, int32_t depth,
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
static OPBRIDGE_OPTIMIZE_FOR_SIZE __attribute__((noinline, unused)) void
opbridge_units(const int8_t *x, const int8_t *filter, int32_t depth, int32_t units,
               const opbridge_folded_requantization *rq, int8_t *output) {
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
      opbridge_dot4_outlined(x, w0, w1, w2, w3, depth, acc);
    }
    const int32x4_t sums = opbridge_lanes(acc[0], acc[1], acc[2], acc[3]);
    vstrbq_p_s32(output + unit, opbridge_lanes_requantize_outlined(sums, &stage), mask);
  }
}

/* Copies the window at (y_origin, x_origin) into `patch`, input zero point where it overhangs
 * the input: (zero point + input_offset) * weight is 0, as a skipped tap. */
static __attribute__((noinline, unused)) void opbridge_copy_window(const opbridge_conv_s8_folded_params *params,
                                                           const int8_t *image, int32_t y_origin, int32_t x_origin,
                                                           int8_t *patch) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const int32_t channels = in->channels;
  const int8x16_t zero_points = vdupq_n_s8((int8_t)(-params->input_offset));
  /* Rows of taps (dilation 1) or taps (dilated) under 16 bytes are one predicated load and store
   * each; longer taps go 16 bytes at a time. */
  const int32_t row_bytes = fl->width * channels;
  const mve_pred16_t row_lanes = vctp8q((uint32_t)row_bytes);
  if (params->dilation_width == 1 && row_bytes < 16) {
    /* Each window row one load, of the lanes inside the input (lanes off are not read), and the
     * zero point in the others. */
    const int32_t before = x_origin < 0 ? -x_origin * channels : 0;
    const int32_t until = (in->width - x_origin) * channels;
    const mve_pred16_t inside = (mve_pred16_t)(vctp8q((uint32_t)(until < 16 ? (until < 0 ? 0 : until) : 16)) &
                                               ~vctp8q((uint32_t)(before < 16 ? before : 16)));
    const int8_t *column = image + x_origin * channels;
    for (int32_t fy = 0; fy < fl->height; ++fy, patch += row_bytes) {
      const int32_t iy = y_origin + fy * params->dilation_height;
      int8x16_t values = zero_points;
      if (iy >= 0 && iy < in->height) {
        values = vpselq_s8(vldrbq_z_s8(column + iy * in->width * channels, inside), zero_points, inside);
      }
      vstrbq_p_s8(patch, values, row_lanes);
    }
    return;
  }
  if (params->dilation_width == 1 && channels % 16 == 0) {
    /* Whole blocks: a window row is `row_bytes` contiguous input bytes, of which the taps in
     * [first, last) lie inside the input; three plain block loops per row, no test per tap. */
    const int32_t first = x_origin < 0 ? (-x_origin < fl->width ? -x_origin : fl->width) : 0;
    int32_t last = in->width - x_origin < fl->width ? in->width - x_origin : fl->width;
    last = last < first ? first : last;
    const int32_t inside_from = first * channels;
    const int32_t inside_until = last * channels;
    for (int32_t fy = 0; fy < fl->height; ++fy, patch += row_bytes) {
      const int32_t iy = y_origin + fy * params->dilation_height;
      const int32_t from = iy >= 0 && iy < in->height ? inside_from : row_bytes; /* no tap inside */
      const int32_t until = iy >= 0 && iy < in->height ? inside_until : row_bytes;
      /* The row's byte b is input byte x_origin * channels + b of line iy (read only when inside). */
      const int8_t *line = image + (from < until ? iy : 0) * in->width * channels;
      const int32_t x_bytes = x_origin * channels;
      int32_t b = 0;
      for (; b < from; b += 16) {
        vst1q_s8(patch + b, zero_points);
      }
      for (; b < until; b += 16) {
        vst1q_s8(patch + b, vld1q_s8(line + (x_bytes + b)));
      }
      for (; b < row_bytes; b += 16) {
        vst1q_s8(patch + b, zero_points);
      }
    }
    return;
  }
  const mve_pred16_t tap_lanes = vctp8q((uint32_t)channels);
  for (int32_t fy = 0; fy < fl->height; ++fy) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    const int32_t row_inside = iy >= 0 && iy < in->height;
    for (int32_t fx = 0; fx < fl->width; ++fx) {
      const int32_t ix = x_origin + fx * params->dilation_width;
      const int32_t inside = row_inside && ix >= 0 && ix < in->width;
      if (channels < 16) {
        const int8x16_t values =
            inside ? vldrbq_z_s8(image + (iy * in->width + ix) * channels, tap_lanes) : zero_points;
        vstrbq_p_s8(patch, values, tap_lanes);
        patch += channels;
        continue;
      }
      const int8_t *pixel = inside ? image + (iy * in->width + ix) * channels : NULL;
      if (channels % 16 == 0) { /* whole blocks: no predication */
        for (int32_t c = 0; c < channels; c += 16) {
          vst1q_s8(patch + c, inside ? vld1q_s8(pixel + c) : zero_points);
        }
      } else {
        for (int32_t c = 0; c < channels; c += 16) {
          const mve_pred16_t lanes = vctp8q((uint32_t)(channels - c));
          vstrbq_p_s8(patch + c, inside ? vldrbq_z_s8(pixel + c, lanes) : zero_points, lanes);
        }
      }
      patch += channels;
    }
  }
}

/* One channel: what opbridge_plane_channel<V>'s assembly reads (offsets below; "state" fields it
 * advances row by row). */
typedef struct {
  const int8_t *window;      /* 0: the plane (a row's first window) */
  int32_t window_step;       /* 4: plane bytes between neighbouring windows (stride x filter height) */
  int8_t *destination;       /* 8: state: the output row's first output */
  int32_t destination_step;  /* 12: bytes between groups of four outputs: 4 x channels */
  int32_t groups;            /* 16: whole groups of four positions a row */
  int32_t tail;              /* 20: positions after them (0 to 3) */
  int32_t bias;              /* 24 */
  int32_t left;              /* 28: max(shift, 0) */
  int32_t multiplier;        /* 32 */
  int32_t round;             /* 36: 1 where the shift is to the right, else 0 (the rounding fix) */
  int32_t right;             /* 40: min(shift, 0) */
  int32_t offset;            /* 44 */
  const int8_t *taps;        /* 48: the channel's taps in the filter's order, a zero at byte 64 */
  const uint8_t *rotations;  /* 52: per slot rotation, for each window byte in the plane its tap in `taps` */
  int32_t rows_left;         /* 56: state: output rows to go */
  int32_t output_row_bytes;  /* 60: output width x channels */
  int32x4_t minimum;         /* 64 */
  int32x4_t maximum;         /* 80 */
  uint32x4_t offsets;        /* 96: 0, channels, 2 x channels, 3 x channels: a group's outputs */
  int32_t y;                 /* 112: state: the next input row to copy */
  int32_t y_end;             /* 116: state: the current output row's window rows end */
  int32_t slot;              /* 120: state: y's slot (y mod filter height) */
  uintptr_t source;          /* 124: state: input row y of the channel (not read outside the input) */
  int32_t height;            /* 128: input rows */
  int32_t row_bytes;         /* 132: input width x channels */
  int32_t columns;           /* 136: input columns copied */
  int8_t *first_column;      /* 140: the plane's first input column */
  int32_t filter_height;     /* 144 */
  int32_t input_step;        /* 148: 8 x channels */
  int32_t plane_step;        /* 152: 8 x filter height */
  int32_t stride_height;     /* 156 */
  int32_t vector_bytes;      /* 160: 16 x V */
  int32_t unused[3];         /* 164 */
  uint16x8_t input_offsets;  /* 176: 0, channels, ..., 7 x channels */
  uint16x8_t plane_offsets;  /* 192: 0, filter height, ..., 7 x filter height */
  int16x8_t zero_points;     /* 208 */
} opbridge_plane_channel_job;

typedef char opbridge_plane_channel_job_layout[(sizeof(void *) == 4 &&
                                                offsetof(opbridge_plane_channel_job, bias) == 24 &&
                                                offsetof(opbridge_plane_channel_job, taps) == 48 &&
                                                offsetof(opbridge_plane_channel_job, minimum) == 64 &&
                                                offsetof(opbridge_plane_channel_job, offsets) == 96 &&
                                                offsetof(opbridge_plane_channel_job, y) == 112 &&
                                                offsetof(opbridge_plane_channel_job, vector_bytes) == 160 &&
                                                offsetof(opbridge_plane_channel_job, input_offsets) == 176 &&
                                                offsetof(opbridge_plane_channel_job, zero_points) == 208)
                                                   ? 1
                                                   : -1];

/* The job's output stage constants for output channel `channel`. */
static inline void opbridge_plane_job_channel(opbridge_plane_channel_job *job, const opbridge_folded_requantization *rq,
                                              int32_t channel) {
  const int32_t index = rq->per_channel ? channel : 0;
  const int32_t shift = rq->shifts[index];
  job->bias = rq->folded_bias[channel];
  job->left = shift > 0 ? shift : 0;
  job->multiplier = rq->multipliers[index];
  job->round = shift < 0;
  job->right = shift < 0 ? shift : 0;
}

/* Runs a channel's output rows: for each, the input rows it has not read yet copied into their
 * plane slots (none where y is already y_end), then its positions four at a time. */
typedef void (*opbridge_plane_channel_fn)(opbridge_plane_channel_job *);

/* The channel function for windows of V 16-byte vectors a window step apart
 * (opbridge_folded_planes_helium.c), for a channel whose rescale shifts left or one that does not. */
opbridge_plane_channel_fn opbridge_plane_channel_of(int32_t vectors, int32_t step, int32_t left_shift);

/* The channel function for windows of at most 8 bytes, two positions a load (`step` bytes apart:
 * two positions), its weights two vectors: lanes 0-7 for the first position and the second
 * position's lanes for it. */
opbridge_plane_channel_fn opbridge_plane_pairs_of(int32_t step, int32_t left_shift);

#endif /* OPBRIDGE_FOLDED_HELIUM_INTERNAL_H_ */
