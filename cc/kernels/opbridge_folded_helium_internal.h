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
static __attribute__((noinline, unused)) int32x4_t opbridge_lanes_requantize_outlined(int32x4_t acc,
                                                                                     const opbridge_lanes_output *stage) {
  return opbridge_lanes_requantize(acc, stage);
}

static __attribute__((noinline, unused)) void opbridge_dot4_outlined(const int8_t *x, const int8_t *w0,
                                                                     const int8_t *w1, const int8_t *w2,
                                                                     const int8_t *w3, int32_t n, int32_t acc[4]) {
  opbridge_dot4(x, w0, w1, w2, w3, n, acc);
}

/* The loops several forms call, defined in opbridge_conv_2d_s8_folded_helium.c: CONV_2D calls them
 * most, and there its calls see their bodies (GCC's mod-ref), as when the forms were one file. */

/* sums and output stage for `units` units of `depth` bytes, depth a multiple of 16 and units of 4. */
void opbridge_units_whole(const int8_t *x, const int8_t *filter, int32_t depth, int32_t units,
                          const opbridge_folded_requantization *rq, int8_t *output);
/* Any `units` outputs of one input vector of `depth` bytes against `units` weight rows. */
void opbridge_units(const int8_t *x, const int8_t *filter, int32_t depth, int32_t units,
                    const opbridge_folded_requantization *rq, int8_t *output);
/* The window at (y_origin, x_origin) copied into `patch`, the input zero point where it overhangs. */
void opbridge_copy_window(const opbridge_conv_s8_folded_params *params, const int8_t *image, int32_t y_origin,
                          int32_t x_origin, int8_t *patch);

#endif /* OPBRIDGE_FOLDED_HELIUM_INTERNAL_H_ */
