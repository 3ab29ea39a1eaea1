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
#include <stddef.h>


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
static OPBRIDGE_OPTIMIZE_FOR_SIZE void __attribute__((noinline)) opbridge_units(const int8_t *x, const int8_t *filter,
                                                                                int32_t depth,
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

/* What opbridge_units_in_registers<B> reads besides the input and the weights (offsets 0-32). */
typedef struct {
  const int32_t *bias;        /* folded bias, [units] */
  const int32_t *multipliers; /* [units], or four copies of a shared one (step 0) */
  const int32_t *shifts;      /* as multipliers, none positive */
  int32_t groups;             /* groups of four units */
  int32_t step;               /* bytes from one group's multipliers and shifts to the next's: 16, or 0 if shared */
  int32_t offset;
  int32_t minimum;
  int32_t maximum;
  int32_t depth; /* bytes from one unit's weight row to the next */
} opbridge_units_stage;

typedef char opbridge_units_stage_layout[(sizeof(void *) == 4 && offsetof(opbridge_units_stage, depth) == 32)
                                             ? 1
                                             : -1];

/* One unit's dot product into accumulator a: B blocks of its weight row, one load and one
 * VMLADAV(A).S8 with an input block (operands x0-x3) a block, then the next row. */
#define OPBRIDGE_UNIT_DOT_1(a) "   vldrb.8 q0, [%[w]]\n   vmladav.s8 %[" a "], %q[x0], q0\n"
#define OPBRIDGE_UNIT_DOT_2(a) \
  OPBRIDGE_UNIT_DOT_1(a) "   vldrb.8 q1, [%[w], #16]\n   vmladava.s8 %[" a "], %q[x1], q1\n"
#define OPBRIDGE_UNIT_DOT_3(a) \
  OPBRIDGE_UNIT_DOT_2(a) "   vldrb.8 q0, [%[w], #32]\n   vmladava.s8 %[" a "], %q[x2], q0\n"
#define OPBRIDGE_UNIT_DOT_4(a) \
  OPBRIDGE_UNIT_DOT_3(a) "   vldrb.8 q1, [%[w], #48]\n   vmladava.s8 %[" a "], %q[x3], q1\n"
#define OPBRIDGE_UNIT_DOT(B, a) OPBRIDGE_UNIT_DOT_##B(a) "   add      %[w], %[w], %[depth]\n"


/* stage->groups groups of four units over one input vector of at most B blocks of 16 bytes,
 * held in registers (x0..x<B-1>; bytes past the vector's end zero, so that the weights read
 * past a row's end, the next row's, add nothing): the dot products, then the output stage of
 * opbridge_lanes_requantize without the left shift, 25 instructions per four units. The sums
 * enter the vector one lane at a time: the two-lane VMOV is avoided, as assemblers and
 * emulators have disagreed on which register goes to which lane. The last row's last block must
 * not pass the end of the filter: opbridge_plan_units gives such a group a copy of its rows. */
#define OPBRIDGE_UNITS_IN_REGISTERS_BODY(B, DOT)                                                  \
  int32_t a0, a1, a2, a3, depth;                                                                  \
  const int32_t *bias, *multipliers, *shifts;                                                     \
  __asm__ volatile("   ldr      %[bias], [%[stage], #0]\n"                                        \
                   "   ldr      %[multipliers], [%[stage], #4]\n"                                 \
                   "   ldr      %[shifts], [%[stage], #8]\n"                                      \
                   "   ldr      %[depth], [%[stage], #32]\n"                                      \
                   "   ldr      lr, [%[stage], #12]\n"                                            \
                   "   dls      lr, lr\n"                                                         \
                   "1:\n" DOT(B, "a0") DOT(B, "a1") DOT(B, "a2") DOT(B, "a3")                   \
                   "   vmov.32  q0[0], %[a0]\n"                                                   \
                   "   vmov.32  q0[1], %[a1]\n"                                                   \
                   "   vmov.32  q0[2], %[a2]\n"                                                   \
                   "   vmov.32  q0[3], %[a3]\n"                                                   \
                   "   vldrw.32 q1, [%[bias]], #16\n"                                             \
                   "   vadd.i32 q0, q0, q1\n"                                                     \
                   "   ldr      %[a0], [%[stage], #16]\n"                                         \
                   "   vldrw.32 q1, [%[multipliers]]\n"                                           \
                   "   add      %[multipliers], %[multipliers], %[a0]\n"                          \
                   "   vqrdmulh.s32 q0, q0, q1\n"                                                 \
                   "   vldrw.32 q1, [%[shifts]]\n"                                                \
                   "   add      %[shifts], %[shifts], %[a0]\n"                                    \
                   "   vshr.s32 q2, q1, #31\n"                                                    \
                   "   vshr.s32 q3, q0, #31\n"                                                    \
                   "   vand     q2, q2, q3\n"                                                     \
                   "   vqadd.s32 q0, q0, q2\n"                                                    \
                   "   vrshl.s32 q0, q0, q1\n"                                                    \
                   "   ldr      %[a0], [%[stage], #20]\n"                                         \
                   "   vadd.i32 q0, q0, %[a0]\n"                                                  \
                   "   ldr      %[a0], [%[stage], #24]\n"                                         \
                   "   vdup.32  q1, %[a0]\n"                                                      \
                   "   vmax.s32 q0, q0, q1\n"                                                     \
                   "   ldr      %[a0], [%[stage], #28]\n"                                         \
                   "   vdup.32  q1, %[a0]\n"                                                      \
                   "   vmin.s32 q0, q0, q1\n"                                                     \
                   "   vstrb.32 q0, [%[destination]], #4\n"                                       \
                   "   le       lr, 1b\n"                                                         \
                   : [w] "+r"(w), [destination] "+r"(destination), [a0] "=&Te"(a0), [a1] "=&Te"(a1), \
                     [a2] "=&Te"(a2), [a3] "=&Te"(a3), [bias] "=&r"(bias),                        \
                     [multipliers] "=&r"(multipliers), [shifts] "=&r"(shifts), [depth] "=&r"(depth) \
                   : OPBRIDGE_UNITS_X##B, [stage] "r"(stage)                                      \
                   : "lr", "q0", "q1", "q2", "q3", "memory")

#define OPBRIDGE_UNITS_X1 [x0] "w"(x0)
#define OPBRIDGE_UNITS_X2 OPBRIDGE_UNITS_X1, [x1] "w"(x1)
#define OPBRIDGE_UNITS_X3 OPBRIDGE_UNITS_X2, [x2] "w"(x2)
#define OPBRIDGE_UNITS_X4 OPBRIDGE_UNITS_X3, [x3] "w"(x3)

/* The input vector's blocks x0..x3 (those past B unused), zero-filled past `depth`. */
#define OPBRIDGE_UNITS_LOAD_PART(B)                                                            \
  const uint32_t bytes = (uint32_t)stage->depth;                                               \
  const int8x16_t x0 = vldrbq_z_s8(x, vctp8q(bytes));                                          \
  const int8x16_t x1 = B > 1 ? vldrbq_z_s8(x + 16, vctp8q(bytes > 16 ? bytes - 16 : 0)) : x0; \
  const int8x16_t x2 = B > 2 ? vldrbq_z_s8(x + 32, vctp8q(bytes > 32 ? bytes - 32 : 0)) : x0; \
  const int8x16_t x3 = B > 3 ? vldrbq_z_s8(x + 48, vctp8q(bytes > 48 ? bytes - 48 : 0)) : x0; \
  (void)x1;                                                                                    \
  (void)x2;                                                                                    \
  (void)x3

#define OPBRIDGE_UNITS_IN_REGISTERS(B)                                                              \
  static void __attribute__((noinline)) opbridge_units_in_registers##B(                              \
      const int8_t *x, const int8_t *w, int8_t *destination, const opbridge_units_stage *stage) { \
    OPBRIDGE_UNITS_LOAD_PART(B);                                                                     \
    OPBRIDGE_UNITS_IN_REGISTERS_BODY(B, OPBRIDGE_UNIT_DOT);                                          \
  }

/* Vectors of 1, 2 and 3-4 blocks (the blocks past the vector zero): each variant costs about 300
 * bytes of flash in every module that links it. */
OPBRIDGE_UNITS_IN_REGISTERS(1)
OPBRIDGE_UNITS_IN_REGISTERS(2)
OPBRIDGE_UNITS_IN_REGISTERS(4)

typedef void (*opbridge_units_in_registers_fn)(const int8_t *, const int8_t *, int8_t *,
                                               const opbridge_units_stage *);

/* Units of one input vector of `depth` <= 64 bytes held in registers (opbridge_units_in_registers<B>). */
typedef struct {
  opbridge_units_in_registers_fn run; /* NULL: the layer does not qualify */
  opbridge_units_stage stage;         /* groups read from the filter */
  opbridge_units_stage last_stage;    /* the last group, read from last_rows (groups 0: none) */
  int32_t shared[8];                  /* a shared multiplier and shift, four times each */
  int32_t units;                      /* units run in registers: every whole group */
  int8_t last_rows[4 * 64 + 16];      /* the last group's weight rows, then zeros to read past them */
} opbridge_units_plan;

/* Plans opbridge_units_in_registers for `units` units of `depth` bytes, if depth <= 64 and no shift
 * is left; else plan->run is NULL. The plan points into itself: keep it where it was planned. */
static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_plan_units(const int8_t *filter, int32_t depth, int32_t units,
                                const opbridge_folded_requantization *rq, opbridge_units_plan *plan) {
  static const opbridge_units_in_registers_fn by_blocks[4] = {
      opbridge_units_in_registers1, opbridge_units_in_registers2, opbridge_units_in_registers4,
      opbridge_units_in_registers4};
  plan->run = NULL;
  plan->units = 0;
  const int32_t blocks = (depth + 15) / 16;
  const int32_t groups = units / 4;
  if (depth > 64 || groups <= 0) {
    return;
  }
  /* The last row's reads end at 16 * blocks bytes past its start, past the filter unless depth
   * is whole blocks: then the last group reads a copy of its rows followed by zeros. */
  const int32_t read = 16 * (blocks == 3 ? 4 : blocks); /* bytes each row's loads span */
  const int32_t copied = depth != read;
  for (int32_t u = 0; u < (rq->per_channel ? units : 1); ++u) {
    if (rq->shifts[u] > 0) {
      return;
    }
  }
  for (int32_t k = 0; k < 4; ++k) {
    plan->shared[k] = rq->multipliers[0];
    plan->shared[4 + k] = rq->shifts[0];
  }
  const opbridge_units_stage stage = {rq->folded_bias,
                                      rq->per_channel ? rq->multipliers : plan->shared,
                                      rq->per_channel ? rq->shifts : plan->shared + 4,
                                      groups - copied,
                                      rq->per_channel ? 16 : 0,
                                      rq->output_offset,
                                      rq->activation_min,
                                      rq->activation_max,
                                      depth};
  plan->stage = stage;
  plan->last_stage = stage;
  plan->last_stage.groups = copied;
  if (copied) {
    const int32_t first = 4 * (groups - 1); /* the last group's first unit */
    plan->last_stage.bias += first;
    plan->last_stage.multipliers += rq->per_channel ? first : 0;
    plan->last_stage.shifts += rq->per_channel ? first : 0;
    for (int32_t i = 0; i < (int32_t)sizeof(plan->last_rows); ++i) {
      plan->last_rows[i] = i < 4 * depth ? filter[first * depth + i] : 0;
    }
  }
  plan->units = 4 * groups;
  plan->run = by_blocks[blocks - 1];
}

/* Every unit of the input vector x (depth bytes, read whole: its blocks are loaded once, the
 * last zero-filled past depth): plan->units in registers, the rest by opbridge_units. */
/* The whole groups of four units of opbridge_units_planned. */
static inline void opbridge_units_planned_groups(const opbridge_units_plan *plan, const int8_t *x,
                                                 const int8_t *filter, int8_t *output) {
  if (plan->stage.groups > 0) {
    plan->run(x, filter, output, &plan->stage);
  }
  if (plan->last_stage.groups > 0) {
    plan->run(x, plan->last_rows, output + 4 * plan->stage.groups, &plan->last_stage);
  }
}

static inline void opbridge_units_planned(const opbridge_units_plan *plan, const int8_t *x, const int8_t *filter,
                                          int32_t depth, int32_t units, const opbridge_folded_requantization *rq,
                                          int8_t *output) {
  opbridge_units_planned_groups(plan, x, filter, output);
  if (plan->units < units) {
    opbridge_folded_requantization rest = *rq;
    rest.folded_bias += plan->units;
    rest.multipliers += rest.per_channel ? plan->units : 0;
    rest.shifts += rest.per_channel ? plan->units : 0;
    opbridge_units(x, filter + plan->units * depth, depth, units - plan->units, &rest, output + plan->units);
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
static OPBRIDGE_OPTIMIZE_FOR_SIZE int32x4_t __attribute__((noinline))
opbridge_conv_window4(const opbridge_conv_s8_folded_params *params, const int8_t *image,
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
static void __attribute__((noinline)) opbridge_copy_window(const opbridge_conv_s8_folded_params *params,
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

/* What opbridge_conv_segment_in_assembly reads besides the input and the weights: a run of
 * interior windows of one group of four output channels (whole 16-byte blocks per window row,
 * no left shift). */
typedef struct {
  int32_t blocks;           /* 0: blocks per window row */
  const int8_t *w0_end;     /* 4: the first weight row's end (its window's last tap + 1) */
  int32_t row_skip;         /* 8: bytes from the end of a window row to the next row's start */
  int32_t back;             /* 12: bytes from the end of a window to the next window's start */
  int32_t window_bytes;     /* 16: bytes of a weight row (one output channel's window) */
  int32_t destination_step; /* 20: bytes between outputs of neighbouring positions (channels) */
  int32_t offset;           /* 24: output offset */
  const int8_t *end;        /* 28: the destination after the last position */
  int8_t *destination;      /* 32: the first position's output */
  const int8_t *origin;     /* 36: the first window's first tap */
  const int8_t *weights;    /* 40: the group's first weight row (the others follow it) */
  int32_t unused;           /* 44 */
  int32x4_t bias;           /* 48 */
  int32x4_t multiplier;     /* 64 */
  int32x4_t right;          /* 80: min(shift, 0) */
  int32x4_t round;          /* 96: -1 where right < 0 */
  int32x4_t minimum;        /* 112 */
  int32x4_t maximum;        /* 128 */
} opbridge_conv_job;

typedef char opbridge_conv_job_layout[(sizeof(void *) == 4 && offsetof(opbridge_conv_job, destination) == 32 &&
                                       offsetof(opbridge_conv_job, bias) == 48 &&
                                       offsetof(opbridge_conv_job, maximum) == 128)
                                          ? 1
                                          : -1];

/* A window row of B blocks: written out for 3, else (0) a low-overhead loop. */
#define OPBRIDGE_CONV_ROW_3 OPBRIDGE_DOT4_BLOCK OPBRIDGE_DOT4_BLOCK OPBRIDGE_DOT4_BLOCK
#define OPBRIDGE_CONV_ROW_0              \
  "   ldr     lr, [%[job], #0]\n"        \
  "   dls     lr, lr\n"                  \
  "4:\n" OPBRIDGE_DOT4_BLOCK             \
  "   le      lr, 4b\n"

/* Every position of the run: the window's rows, then the output stage (constants q3-q7 and the
 * job), one store of four bytes, then the next window (x, and the weight rows back to their
 * starts). Stage and loop: 35 instructions a position, and 5 a window row besides its blocks.
 * Every operand is an output loaded from the job: at -O0, GCC cannot place this many in-out
 * operands. */
#define OPBRIDGE_CONV_SEGMENT(B)                                                                      \
  static void __attribute__((noinline)) opbridge_conv_segment_in_assembly##B(const opbridge_conv_job *job) { \
    int32_t a0, a1, a2, a3;                                                                            \
    const int8_t *x, *w0, *w1, *w2, *w3;                                                               \
    int8_t *destination;                                                                               \
    __asm__ volatile("   vldrw.32 q3, [%[job], #112]\n"                                                \
                     "   vldrw.32 q4, [%[job], #48]\n"                                                 \
                     "   vldrw.32 q5, [%[job], #64]\n"                                                 \
                     "   vldrw.32 q6, [%[job], #80]\n"                                                 \
                     "   vldrw.32 q7, [%[job], #96]\n"                                                 \
                     "   ldr     %[destination], [%[job], #32]\n"                                      \
                     "   ldr     %[x], [%[job], #36]\n"                                                \
                     "   ldr     %[w0], [%[job], #40]\n"                                               \
                     "2: ldr     lr, [%[job], #16]\n"                                                  \
                     "   add     %[w1], %[w0], lr\n"                                                   \
                     "   add     %[w2], %[w1], lr\n"                                                   \
                     "   add     %[w3], %[w2], lr\n"                                                   \
                     "   movs    %[a0], #0\n"                                                          \
                     "   movs    %[a1], #0\n"                                                          \
                     "   movs    %[a2], #0\n"                                                          \
                     "   movs    %[a3], #0\n"                                                          \
                     "0:\n" OPBRIDGE_CONV_ROW_##B                                                      \
                     "   ldr     lr, [%[job], #8]\n"                                                   \
                     "   add     %[x], %[x], lr\n"                                                     \
                     "   ldr     lr, [%[job], #4]\n"                                                   \
                     "   cmp     %[w0], lr\n"                                                          \
                     "   bne     0b\n"                                                                 \
                     "   vmov.32 q0[0], %[a0]\n"                                                       \
                     "   vmov.32 q0[1], %[a1]\n"                                                       \
                     "   vmov.32 q0[2], %[a2]\n"                                                       \
                     "   vmov.32 q0[3], %[a3]\n"                                                       \
                     "   vadd.i32 q0, q0, q4\n"                                                        \
                     "   vqrdmulh.s32 q0, q0, q5\n"                                                    \
                     "   vshr.s32 q1, q0, #31\n"                                                       \
                     "   vand    q1, q1, q7\n"                                                         \
                     "   vqadd.s32 q0, q0, q1\n"                                                       \
                     "   vrshl.s32 q0, q0, q6\n"                                                       \
                     "   ldr     lr, [%[job], #24]\n"                                                  \
                     "   vadd.i32 q0, q0, lr\n"                                                        \
                     "   vmax.s32 q0, q0, q3\n"                                                        \
                     "   vldrw.32 q1, [%[job], #128]\n"                                                \
                     "   vmin.s32 q0, q0, q1\n"                                                        \
                     "   vstrb.32 q0, [%[destination]]\n"                                              \
                     "   ldr     lr, [%[job], #20]\n"                                                  \
                     "   add     %[destination], %[destination], lr\n"                                 \
                     "   ldr     lr, [%[job], #12]\n"                                                  \
                     "   add     %[x], %[x], lr\n"                                                     \
                     "   ldr     %[w0], [%[job], #40]\n"                                               \
                     "   ldr     lr, [%[job], #28]\n"                                                  \
                     "   cmp     %[destination], lr\n"                                                 \
                     "   bne     2b\n"                                                                 \
                     : [x] "=&r"(x), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3),     \
                       [destination] "=&l"(destination), [a0] "=&Te"(a0), [a1] "=&Te"(a1),              \
                       [a2] "=&Te"(a2), [a3] "=&Te"(a3)                                                 \
                     : [job] "r"(job)                                                                  \
                     : "lr", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "cc");         \
  }

/* Window rows of 3 blocks (3x3 over 16 channels, common in small CNNs) written out; the rest
 * loop (each written-out width costs about 350 bytes of flash in every module that links CONV_2D). */
OPBRIDGE_CONV_SEGMENT(0)
OPBRIDGE_CONV_SEGMENT(3)

static inline __attribute__((always_inline)) void opbridge_conv_interior_segment(
    const opbridge_conv_segment *segment, const opbridge_lanes_output *stage, int32_t rows_of_blocks) {
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
  const int32_t whole_blocks = rows_of_blocks || run % 16 == 0;
  if (whole_blocks && mask == 0xffff && vmaxvq_s32(0, constants.left) == 0) {
    /* Four channels, no left shift: the run in assembly. */
    const int32_t blocks = run / 16;
    const opbridge_conv_job job = {
        blocks,
        w0 + window_rows * run,
        row_step - run,
        origin_step - window_rows * row_step,
        window_rows * run,
        destination_step,
        constants.offset,
        destination + segment->count * destination_step,
        destination,
        origin,
        w0,
        0,
        constants.bias,
        constants.multiplier,
        constants.right,
        vshrq_n_s32(constants.right, 31),
        vdupq_n_s32(constants.minimum),
        vdupq_n_s32(constants.maximum),
    };
    (blocks == 3 ? opbridge_conv_segment_in_assembly3 : opbridge_conv_segment_in_assembly0)(&job);
    return;
  }
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

/* The segment for window rows of whole blocks (opbridge_conv_2d_s8_folded_blocks: no partial-block
 * loop linked), and for any rows. Out of line: with the border paths around it, GCC would spill
 * the hot loop's values. */
static void __attribute__((noinline)) opbridge_conv_segment_of_blocks(const opbridge_conv_segment *segment,
                                                                      const opbridge_lanes_output *stage) {
  opbridge_conv_interior_segment(segment, stage, 1);
}

static void __attribute__((noinline)) opbridge_conv_segment_any(const opbridge_conv_segment *segment,
                                                                const opbridge_lanes_output *stage) {
  opbridge_conv_interior_segment(segment, stage, 0);
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
  opbridge_units_plan plan;
  opbridge_plan_units(filter, window_bytes, out->channels, &params->requantization, &plan);
  /* Windows inside the input of at most 64 bytes, all within 256 bytes of their first tap, are
   * gathered into the scratch with byte offsets (one VLDRB gather a block) instead of copied. */
  const int32_t channels = in->channels;
  const int32_t y_span = (fl->height - 1) * params->dilation_height;
  const int32_t x_span = (fl->width - 1) * params->dilation_width;
  const int32_t gathered = window_bytes <= 64 && (y_span * in->width + x_span + 1) * channels <= 256;
  uint8x16_t offsets[4];
  if (gathered) {
    uint8_t lanes[64];
    for (int32_t t = 0; t < 64; ++t) {
      const int32_t tap = t < window_bytes ? t / channels : 0;
      const int32_t fy = tap / fl->width;
      const int32_t fx = tap % fl->width;
      lanes[t] = (uint8_t)(t < window_bytes ? (fy * params->dilation_height * in->width + fx * params->dilation_width) *
                                                    channels +
                                                t % channels
                                          : 0);
    }
    for (int32_t k = 0; k < 4; ++k) {
      offsets[k] = vld1q_u8(lanes + 16 * k);
    }
  }
  for (int32_t b = 0; b < out->batches; ++b) {
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      const int32_t rows_inside = y_origin >= 0 && y_origin + y_span < in->height;
      for (int32_t ox = 0; ox < out->width; ++ox) {
        const int32_t x_origin = ox * params->stride_width - params->padding_width;
        if (gathered && rows_inside && x_origin >= 0 && x_origin + x_span < in->width) {
          const int8_t *origin = input + b * image_bytes + (y_origin * in->width + x_origin) * channels;
          for (int32_t k = 0; k * 16 < window_bytes; ++k) {
            const mve_pred16_t p = vctp8q((uint32_t)(window_bytes - 16 * k));
            vstrbq_p_s8(scratch + 16 * k, vldrbq_gather_offset_z_s8(origin, offsets[k], p), p);
          }
        } else {
          opbridge_copy_window(params, input + b * image_bytes, y_origin, x_origin, scratch);
        }
        if (plan.run != NULL) {
          opbridge_units_planned(&plan, scratch, filter, window_bytes, out->channels, &params->requantization,
                                 output);
        } else {
          opbridge_units(scratch, filter, window_bytes, out->channels, &params->requantization, output);
        }
        output += out->channels;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t
opbridge_conv_2d_s8_folded_pointwise(const opbridge_conv_s8_folded_params *caller_params,
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
  opbridge_units_plan plan;
  opbridge_plan_units(filter, in->channels, channels, rq, &plan);
  for (int32_t b = 0; b < out->batches; ++b) {
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int8_t *row = input + b * image_bytes + oy * params->stride_height * in->width * in->channels;
      for (int32_t ox = 0; ox < out->width; ++ox, output += channels) {
        const int8_t *x = row + ox * params->stride_width * in->channels;
        if (plan.run != NULL) {
          opbridge_units_planned(&plan, x, filter, in->channels, channels, rq, output);
          continue;
        }
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

int32_t opbridge_conv_2d_s8_folded_pointwise_narrow(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pointwise_narrow_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims in = params->input;
  const opbridge_dims out = params->output;
  opbridge_units_plan plan; /* every unit in registers: whole groups, no left shift */
  opbridge_plan_units(filter, in.channels, out.channels, &params->requantization, &plan);
  const int32_t row_step = params->stride_height * in.width * in.channels;
  const int32_t column_step = params->stride_width * in.channels;
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * in.height * in.width * in.channels;
    for (int32_t oy = 0; oy < out.height; ++oy) {
      const int8_t *x = image + oy * row_step;
      for (int32_t ox = 0; ox < out.width; ++ox, x += column_step, output += out.channels) {
        opbridge_units_planned_groups(&plan, x, filter, output);
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* CONV_2D, in place. `of_blocks` (a constant, opbridge_conv_2d_s8_folded_blocks): window rows of
 * whole blocks and windows that fit the stack copy, so the per-tap border path is not linked. */
static inline __attribute__((always_inline)) int32_t opbridge_conv_folded(
    const opbridge_conv_s8_folded_params *caller_params, const int8_t *input, const int8_t *filter, int8_t *output,
    int32_t of_blocks) {
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
      of_blocks ||
      (params->dilation_width == 1 && window_bytes % 16 == 0 && window_bytes <= OPBRIDGE_CONV_BLOCKS_MAX_WINDOW);
  if (patched_borders) {
    int8_t patch[OPBRIDGE_CONV_BLOCKS_MAX_WINDOW]; /* the largest window copied onto the stack */
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
            if (of_blocks) {
              opbridge_conv_segment_of_blocks(&segment, &stage);
            } else {
              opbridge_conv_segment_any(&segment, &stage);
            }
            destination += (end_inside - ox) * channels;
            ox = end_inside;
            continue;
          }
          if (of_blocks || patched_borders) { /* done above */
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

int32_t opbridge_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                   const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_folded(params, input, filter, output, 0);
}

int32_t opbridge_conv_2d_s8_folded_blocks(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                          const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_blocks_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_conv_folded(params, input, filter, output, 1);
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

/* sum(input * weight) of four channels over a window (the channels after the last block of 16,
 * and windows too large for the line buffer): taps outside the input read
 * `zero_points` (the input zero point in every lane), whose products cancel the folded bias's
 * share of those taps, as TFLite Micro's skipping them does. */
static OPBRIDGE_OPTIMIZE_FOR_SIZE int32x4_t __attribute__((noinline))
opbridge_depthwise_border(const opbridge_depthwise_window *window, const int8_t *image,
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

/* The output stage of a block of 16 channels, in the lane order of the accumulators of
 * OPBRIDGE_DEPTHWISE_TAP16 (channels {0,4,8,12}, {2,6,10,14}, {1,5,9,13}, {3,7,11,15}): gathered
 * once per block, so that each position reads it with plain loads. */
typedef struct {
  int32x4_t bias[4];
  int32x4_t multiplier[4];
  int32x4_t left[4];  /* max(shift, 0) */
  int32x4_t right[4]; /* min(shift, 0) */
  int32x4_t round[4]; /* -1 where right < 0: the rounding correction's mask */
  int16x8_t minimum;
  int16x8_t maximum;
  int32_t any_left;
} opbridge_stage16;

/* Byte offsets of the members opbridge_depthwise_row16's assembly reads (checked below). */
#define OPBRIDGE_STAGE16_BIAS "0"
#define OPBRIDGE_STAGE16_MULTIPLIER "64"
#define OPBRIDGE_STAGE16_LEFT "128"
#define OPBRIDGE_STAGE16_RIGHT "192"
#define OPBRIDGE_STAGE16_ROUND "256"
#define OPBRIDGE_STAGE16_MINIMUM "320"
#define OPBRIDGE_STAGE16_MAXIMUM "336"
#define OPBRIDGE_STAGE16_ANY_LEFT "352"
typedef char opbridge_stage16_layout[(offsetof(opbridge_stage16, bias) == 0 &&
                                      offsetof(opbridge_stage16, multiplier) == 64 &&
                                      offsetof(opbridge_stage16, left) == 128 &&
                                      offsetof(opbridge_stage16, right) == 192 &&
                                      offsetof(opbridge_stage16, round) == 256 &&
                                      offsetof(opbridge_stage16, minimum) == 320 &&
                                      offsetof(opbridge_stage16, maximum) == 336 &&
                                      offsetof(opbridge_stage16, any_left) == 352)
                                         ? 1
                                         : -1];

static const int32_t opbridge_lane_order16[4] = {0, 2, 1, 3};

static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_load_stage16(const opbridge_folded_requantization *rq, int32_t channel,
                                  opbridge_stage16 *stage) {
  const uint32x4_t offsets = vidupq_n_u32(0, 4);
  stage->any_left = 0;
  for (int32_t k = 0; k < 4; ++k) {
    const int32_t base = channel + opbridge_lane_order16[k];
    int32x4_t shift;
    if (rq->per_channel) {
      stage->multiplier[k] = vldrwq_gather_shifted_offset_s32(rq->multipliers + base, offsets);
      shift = vldrwq_gather_shifted_offset_s32(rq->shifts + base, offsets);
    } else {
      stage->multiplier[k] = vdupq_n_s32(rq->multipliers[0]);
      shift = vdupq_n_s32(rq->shifts[0]);
    }
    stage->bias[k] = vldrwq_gather_shifted_offset_s32(rq->folded_bias + base, offsets);
    stage->left[k] = vmaxq_s32(shift, vdupq_n_s32(0));
    stage->right[k] = vminq_s32(shift, vdupq_n_s32(0));
    stage->round[k] = vshrq_n_s32(stage->right[k], 31);
    stage->any_left |= vmaxvq_s32(0, stage->left[k]) > 0;
  }
  stage->minimum = vdupq_n_s16((int16_t)rq->activation_min);
  stage->maximum = vdupq_n_s16((int16_t)rq->activation_max);
}

/* One tap of 16 channels: a 16-byte load of inputs (from %[x]) and of weights (from %[w], then
 * advanced by %[weight_step]), VMULLB/VMULLT.S8 (the 16 products as two int16 vectors: even
 * and odd channels), then VMOVLB/VMOVLT.S16 and VADD into the four int32 accumulators. */
#define OPBRIDGE_DEPTHWISE_TAP16            \
  "   vldrb.8 q0, [%[x]]\n"                 \
  "   vldrb.8 q1, [%[w]]\n"                 \
  "   add     %[w], %[w], %[weight_step]\n" \
  OPBRIDGE_DEPTHWISE_PRODUCTS16

/* The products of the inputs in q0 and the weights in q1, added to the accumulators. */
#define OPBRIDGE_DEPTHWISE_PRODUCTS16        \
  "   vmullb.s8 q2, q0, q1\n"               \
  "   vmullt.s8 q3, q0, q1\n"               \
  "   vmovlb.s16 q0, q2\n"                  \
  "   vadd.i32 %q[acc0], %q[acc0], q0\n"    \
  "   vmovlt.s16 q0, q2\n"                  \
  "   vadd.i32 %q[acc1], %q[acc1], q0\n"    \
  "   vmovlb.s16 q0, q3\n"                  \
  "   vadd.i32 %q[acc2], %q[acc2], q0\n"    \
  "   vmovlt.s16 q0, q3\n"                  \
  "   vadd.i32 %q[acc3], %q[acc3], q0\n"


/* What opbridge_depthwise_row16 reads besides the stage, in memory: its loop has more values than
 * there are general registers. */
typedef struct {
  const int8_t *taps;       /* the block's weights: taps `weight_step` bytes apart */
  int32_t rows;             /* window rows */
  int32_t columns;          /* taps per window row */
  int32_t tap_step;         /* bytes between taps along a line */
  int32_t weight_step;      /* bytes between taps in the filter (its channels) */
  int32_t row_skip;         /* bytes from a row's last tap + tap_step to the next row's first */
  int32_t position_step;    /* bytes between the windows of neighbouring output positions */
  int32_t destination_step; /* bytes between neighbouring output positions (the channels) */
  int32_t offset;           /* output offset */
} opbridge_row16;

/* Its members are int32_t and pointers of 4 bytes: at 0, 4, ..., 32 in this order. */
typedef char opbridge_row16_layout[(sizeof(void *) == 4 && offsetof(opbridge_row16, offset) == 32) ? 1 : -1];

/* acc<k> (an operand) rescaled in place, after any left shift: VQRDMULH, then the rounding
 * right shift as opbridge_lanes_requantize does. */
#define OPBRIDGE_STAGE16_SCALE(k)                                                 \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_MULTIPLIER " + " #k " * 16]\n" \
  "   vqrdmulh.s32 %q[acc" #k "], %q[acc" #k "], q0\n"                            \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_ROUND " + " #k " * 16]\n"      \
  "   vshr.s32 q1, %q[acc" #k "], #31\n"                                          \
  "   vand     q1, q1, q0\n"                                                       \
  "   vqadd.s32 %q[acc" #k "], %q[acc" #k "], q1\n"                               \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_RIGHT " + " #k " * 16]\n"      \
  "   vrshl.s32 %q[acc" #k "], %q[acc" #k "], q0\n"

/* The start of a position in opbridge_depthwise_row16's loops: accumulators = folded bias. */
#define OPBRIDGE_ROW16_START                                           \
  "2: vldrw.32 %q[acc0], [%[stage], #" OPBRIDGE_STAGE16_BIAS "]\n"      \
  "   vldrw.32 %q[acc1], [%[stage], #" OPBRIDGE_STAGE16_BIAS " + 16]\n" \
  "   vldrw.32 %q[acc2], [%[stage], #" OPBRIDGE_STAGE16_BIAS " + 32]\n" \
  "   vldrw.32 %q[acc3], [%[stage], #" OPBRIDGE_STAGE16_BIAS " + 48]\n" \
  "   mov      %[x], %[origin]\n"                                      \
  "   ldr      %[w], [%[row], #0]\n"                                   \
  "   ldr      %[rows], [%[row], #4]\n"

/* The end of a position: the output stage (38 instructions; 8 more when a channel of the block
 * shifts left), one 16-byte store, the next position. The 16 lanes leave in channel order:
 * saturating narrows to int16 (even channels from accumulators 0 and 1, odd from 2 and 3), the
 * offset and clamp on int16 lanes (a saturated value lies beyond the int8 clamp bounds anyway),
 * then narrows to bytes. */
#define OPBRIDGE_ROW16_END                                                      \
  "   ldr      %[scratch], [%[stage], #" OPBRIDGE_STAGE16_ANY_LEFT "]\n"      \
  "   cmp      %[scratch], #0\n"                                              \
  "   beq      5f\n"                                                          \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_LEFT "]\n"                  \
  "   vshl.s32 %q[acc0], %q[acc0], q0\n"                                      \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_LEFT " + 16]\n"             \
  "   vshl.s32 %q[acc1], %q[acc1], q0\n"                                      \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_LEFT " + 32]\n"             \
  "   vshl.s32 %q[acc2], %q[acc2], q0\n"                                      \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_LEFT " + 48]\n"             \
  "   vshl.s32 %q[acc3], %q[acc3], q0\n"                                      \
  "5:\n"                                                                      \
  OPBRIDGE_STAGE16_SCALE(0)                                         \
  OPBRIDGE_STAGE16_SCALE(1)                                         \
  OPBRIDGE_STAGE16_SCALE(2)                                         \
  OPBRIDGE_STAGE16_SCALE(3)                                         \
  "   vqmovnb.s32 q0, %q[acc0]\n"                                   \
  "   vqmovnt.s32 q0, %q[acc1]\n"                                   \
  "   vqmovnb.s32 q1, %q[acc2]\n"                                   \
  "   vqmovnt.s32 q1, %q[acc3]\n"                                   \
  "   ldr      %[scratch], [%[row], #32]\n"                         \
  "   vqadd.s16 q0, q0, %[scratch]\n"                               \
  "   vqadd.s16 q1, q1, %[scratch]\n"                               \
  "   vldrw.32 q2, [%[stage], #" OPBRIDGE_STAGE16_MINIMUM "]\n"     \
  "   vldrw.32 q3, [%[stage], #" OPBRIDGE_STAGE16_MAXIMUM "]\n"     \
  "   vmax.s16 q0, q0, q2\n"                                        \
  "   vmax.s16 q1, q1, q2\n"                                        \
  "   vmin.s16 q0, q0, q3\n"                                        \
  "   vmin.s16 q1, q1, q3\n"                                        \
  "   vmovnb.i16 q2, q0\n"                                          \
  "   vmovnt.i16 q2, q1\n"                                          \
  "   vstrb.8  q2, [%[destination]]\n"                              \
  "   ldr      %[scratch], [%[row], #28]\n"                         \
  "   add      %[destination], %[destination], %[scratch]\n"        \
  "   ldr      %[scratch], [%[row], #24]\n"                         \
  "   add      %[origin], %[origin], %[scratch]\n"                  \
  "   subs     %[count], %[count], #1\n"                            \
  "   bne      2b\n"

#define OPBRIDGE_ROW16_OPERANDS                                                                              \
  : [origin] "+r"(origin), [destination] "+r"(destination), [count] "+r"(count), [x] "=&r"(x), [w] "=&r"(w), \
    [rows] "=&r"(rows), [tap_step] "=&r"(tap_step), [weight_step] "=&r"(weight_step),                       \
    [scratch] "=&r"(scratch), [acc0] "=&w"(acc0), [acc1] "=&w"(acc1), [acc2] "=&w"(acc2), [acc3] "=&w"(acc3) \
  : [row] "r"(row), [stage] "r"(stage)                                                                       \
  : "lr", "q0", "q1", "q2", "q3", "memory", "cc"

/* `count` neighbouring output positions of a block of 16 channels, in assembly (GCC 12 spills the
 * accumulators between taps and output stage): per position the window's taps from `origin`
 * (OPBRIDGE_DEPTHWISE_TAP16: 14 instructions each, 5 more a window row), then the output stage
 * and one 16-byte store. */
static void __attribute__((noinline)) opbridge_depthwise_row16(const opbridge_row16 *row, const opbridge_stage16 *stage,
                                                               const int8_t *origin, int8_t *destination,
                                                               int32_t count) {
  int32x4_t acc0, acc1, acc2, acc3;
  const int8_t *x;
  const int8_t *w;
  int32_t rows, tap_step, weight_step, scratch;
  __asm__ volatile(OPBRIDGE_ROW16_START
                   "   ldr      %[tap_step], [%[row], #12]\n"
                   "   ldr      %[weight_step], [%[row], #16]\n"
                   "0: ldr      lr, [%[row], #8]\n"
                   "   dls      lr, lr\n"
                   "1:\n" OPBRIDGE_DEPTHWISE_TAP16
                   "   add      %[x], %[x], %[tap_step]\n"
                   "   le       lr, 1b\n"
                   "   ldr      %[scratch], [%[row], #20]\n"
                   "   add      %[x], %[x], %[scratch]\n"
                   "   subs     %[rows], %[rows], #1\n"
                   "   bne      0b\n" OPBRIDGE_ROW16_END OPBRIDGE_ROW16_OPERANDS);
}

/* The stack opbridge_depthwise_lines16 copies window lines into (filter height x the input
 * columns of a chunk of output positions x 16 bytes). */
#define OPBRIDGE_DEPTHWISE_LINES_BYTES 1024

/* Every output position of one block of 16 channels (depth multiplier 1), its output stage
 * loaded once. For each output row, a chunk of positions at a time (as many as the line buffer
 * holds), the block's 16 channels of the input rows their windows read are copied once, with the
 * input zero point where they overhang the input (its products cancel the folded bias's share of
 * those taps, as TFLite Micro's skipping them does), so that every window is read alike, without
 * a test per position or per tap. */
static void __attribute__((noinline)) opbridge_depthwise_lines16(const opbridge_conv_s8_folded_params *params,
                                                                 const opbridge_depthwise_window *window,
                                                                 const int8_t *image, const int8_t *taps,
                                                                 int32_t channel, int32_t chunk,
                                                                 int8_t *destination) {
  int8_t lines[OPBRIDGE_DEPTHWISE_LINES_BYTES];
  opbridge_stage16 stage;
  opbridge_load_stage16(&params->requantization, channel, &stage);
  const int8x16_t zero_points = vdupq_n_s8((int8_t)(-window->input_offset));
  const int32_t channels = window->channels;
  const int32_t columns = window->filter_width;
  const int32_t stride = params->stride_width;
  const int32_t x_span = (columns - 1) * params->dilation_width;
  /* A line holds the input columns of `chunk` neighbouring output positions. */
  const int32_t line_columns = (chunk - 1) * stride + x_span + 1;
  const int32_t line_bytes = line_columns * 16;
  const int32_t tap_step = params->dilation_width * 16;
  const int32_t weight_step = channels;
  const int32_t row_skip = line_bytes - columns * tap_step;
  const int32_t position_step = stride * 16;
  const int8_t *block = image + channel;
  const opbridge_row16 row = {taps,     window->filter_height, columns,       tap_step, weight_step,
                              row_skip, position_step,         channels, params->requantization.output_offset};
  for (int32_t oy = 0; oy < params->output.height; ++oy) {
    const int32_t y_origin = oy * params->stride_height - params->padding_height;
    for (int32_t first = 0; first < params->output.width; first += chunk) {
      const int32_t count = params->output.width - first < chunk ? params->output.width - first : chunk;
      /* The line's first column is input column x_first; [left, right) lie inside the input. */
      const int32_t x_first = first * stride - params->padding_width;
      const int32_t used = (count - 1) * stride + x_span + 1;
      int32_t left = -x_first < 0 ? 0 : -x_first;
      left = left < used ? left : used;
      int32_t right = window->width - x_first < used ? window->width - x_first : used;
      right = right < left ? left : right;
      int8_t *line = lines;
      for (int32_t fy = 0; fy < window->filter_height; ++fy, line += line_bytes) {
        const int32_t iy = y_origin + fy * params->dilation_height;
        const int32_t inside_from = iy >= 0 && iy < window->height ? left : used; /* no column inside */
        const int8_t *source = block + (iy * window->width + x_first + left) * channels;
        for (int32_t j = 0; j < inside_from; ++j) {
          vst1q_s8(line + j * 16, zero_points);
        }
        for (int32_t j = inside_from; j < right; ++j, source += channels) {
          vst1q_s8(line + j * 16, vld1q_s8(source));
        }
        for (int32_t j = right > inside_from ? right : inside_from; j < used; ++j) {
          vst1q_s8(line + j * 16, zero_points);
        }
      }
      int8_t *output = destination + (oy * params->output.width + first) * channels;
      opbridge_depthwise_row16(&row, &stage, lines, output, count);
    }
  }
}

/* The most weight bytes (taps x output channels) that the single-input-channel depthwise path
 * transposes onto the stack. */
#define OPBRIDGE_SINGLE_CHANNEL_WEIGHTS 768

/* DEPTHWISE_CONV_2D of one input channel (e.g. micro_speech's first layer, 8 outputs): every
 * output channel reads the same window, so each position is a fully connected row, its window
 * (copied with the zero point where it overhangs) against the output channels' weights, which
 * are transposed once per call onto the stack ([channel][tap]). */
static void __attribute__((noinline)) opbridge_depthwise_single_channel(const opbridge_conv_s8_folded_params *params,
                                                                        const int8_t *input, const int8_t *filter,
                                                                        int8_t *output) {
  int8_t weights[OPBRIDGE_SINGLE_CHANNEL_WEIGHTS];
  int8_t patch[OPBRIDGE_SINGLE_CHANNEL_WEIGHTS / 2]; /* taps: at least 2 output channels */
  const opbridge_dims in = params->input;
  const opbridge_dims out = params->output;
  const int32_t taps = params->filter.height * params->filter.width;
  const int32_t channels = out.channels;
  for (int32_t c = 0; c < channels; ++c) {
    for (int32_t t = 0; t < taps; ++t) {
      weights[c * taps + t] = filter[t * channels + c];
    }
  }
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t whole_units = taps % 16 == 0 ? channels / 4 * 4 : 0;
  opbridge_folded_requantization rest = *rq;
  rest.folded_bias += whole_units;
  rest.multipliers += rest.per_channel ? whole_units : 0;
  rest.shifts += rest.per_channel ? whole_units : 0;
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * in.height * in.width;
    for (int32_t oy = 0; oy < out.height; ++oy) {
      for (int32_t ox = 0; ox < out.width; ++ox, output += channels) {
        opbridge_copy_window(params, image, oy * params->stride_height - params->padding_height,
                             ox * params->stride_width - params->padding_width, patch);
        if (whole_units > 0) {
          opbridge_units_whole(patch, weights, taps, whole_units, rq, output);
        }
        if (whole_units < channels) {
          opbridge_units(patch, weights + whole_units * taps, taps, channels - whole_units, &rest,
                         output + whole_units);
        }
      }
    }
  }
}

/* DEPTHWISE_CONV_2D with a depth multiplier above 1 (e.g. micro_speech's first layer, 1 input
 * channel, 8 outputs): four output channels at a time, their inputs (channel c / multiplier)
 * gathered; taps outside the input read the zero point, whose products cancel in the folded bias. */
int32_t opbridge_depthwise_conv_2d_s8_folded_multiplier(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_call_valid(params, input, filter, output, 1)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (params->input.channels == 1 && params->output.channels >= 2 &&
      params->filter.height * params->filter.width * params->output.channels <= OPBRIDGE_SINGLE_CHANNEL_WEIGHTS) {
    opbridge_depthwise_single_channel(params, input, filter, output);
    return OPBRIDGE_STATUS_OK;
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

OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t
opbridge_depthwise_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params, const int8_t *input,
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
  const int32_t x_span = (window.filter_width - 1) * dilation_width;
  /* Output positions per chunk of window lines (opbridge_depthwise_lines16): as many as the
   * line buffer holds, 0 if not even one window fits (then four channels at a time). */
  const int32_t line_limit = OPBRIDGE_DEPTHWISE_LINES_BYTES / (window.filter_height * 16);
  int32_t chunk = line_limit > x_span ? (line_limit - x_span - 1) / stride_width + 1 : 0;
  chunk = chunk > out.width ? out.width : chunk;
  const int32_t whole_blocks = chunk > 0 ? channels / 16 * 16 : 0;
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * image_bytes;
    int8_t *batch_output = output + b * out.height * out.width * channels;
    for (int32_t c = 0; c < whole_blocks; c += 16) {
      opbridge_depthwise_lines16(params, &window, image, filter + c, c, chunk, batch_output + c);
    }
    /* The channels after the last whole block of 16: four at a time over every position. */
    for (int32_t c = whole_blocks; c < channels; c += 4) {
      const int32_t lanes = channels - c < 4 ? channels - c : 4;
      const mve_pred16_t mask = vctp32q((uint32_t)lanes);
      const opbridge_lanes_output stage = opbridge_load_output(&rq, c, mask);
      int8_t *destination = batch_output + c;
      for (int32_t oy = 0; oy < out.height; ++oy) {
        const int32_t y_origin = oy * stride_height - padding_height;
        for (int32_t ox = 0; ox < out.width; ++ox, destination += channels) {
          const int32_t x_origin = ox * stride_width - padding_width;
          const int32x4_t acc = opbridge_depthwise_border(&window, image + c, y_origin, x_origin, dilation_height,
                                                          dilation_width, filter + c, mask, zero_points);
          vstrbq_p_s32(destination, opbridge_lanes_requantize(acc, &stage), mask);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* OPBRIDGE_DOT4_BLOCK for the functions in assembly: input r1, weight rows r3, r5, r7, r9,
 * accumulators r0, r2, r4, r12, every weight row into q1 (q2 holds a constant there). */
#define OPBRIDGE_HELIUM_DOT4_BLOCK OPBRIDGE_DOT4_BLOCK_OF("r1", "r3", "r5", "r7", "r9", "r0", "r2", "r4", "r12", "q1")

/* What opbridge_helium_fully_connected_rows reads: one input vector of whole blocks against
 * every group of four units, with one multiplier and a shift that is not left for all. */
typedef struct {
  const int8_t *x;      /* 0: the input vector */
  int32_t depth;        /* 4: bytes of the vector and of each weight row, a multiple of 16 */
  int32_t iterations;   /* 8: passes of the four-block loop: ceil(blocks / 4) */
  int32_t skipped;      /* 12: blocks the first pass skips: 4 * iterations - blocks */
  const int32_t *bias;  /* 16: the first group's folded bias */
  int32_t offset;       /* 20: output offset */
  int32_t groups;       /* 24: groups of four units, > 0 */
  int8_t *destination;  /* 28: the first group's outputs */
  const int8_t *weights; /* 32: the first weight row */
  int32_t unused[3];    /* 36 */
  int32x4_t multiplier; /* 48 */
  int32x4_t right;      /* 64 */
  int32x4_t round;      /* 80: -31 with a right shift (a negative value's sign bit), else -32 (none) */
  int32x4_t minimum;    /* 96 */
  int32x4_t maximum;    /* 112 */
} opbridge_fully_connected_job;

typedef char opbridge_fully_connected_job_layout[(sizeof(void *) == 4 &&
                                                  offsetof(opbridge_fully_connected_job, weights) == 32 &&
                                                  offsetof(opbridge_fully_connected_job, multiplier) == 48 &&
                                                  offsetof(opbridge_fully_connected_job, maximum) == 112)
                                                     ? 1
                                                     : -1];

void opbridge_helium_fully_connected_rows(const opbridge_fully_connected_job *job);

/* Every group of four units: the sums start from the folded bias (r0, r2, r4, r12: VMLADAVA
 * takes even registers), a low-overhead loop of four blocks of 9 instructions (input r1, weight
 * rows r3, r5, r7, r9), entered at the block the first pass starts from (the address at [sp]),
 * then the output stage with its constants in q2-q7 (12 instructions). A group's setup is 9
 * instructions: the four weight pointers end where the next group's rows start, the input
 * pointer steps back by the depth (r10). r8 the bias, r6 the outputs (a widening store takes a
 * low register), r11 the groups left,
 * [sp, #4] the passes. Written at file scope so that every register is free at any optimization
 * level (GCC's inline assembly at -O0 gets 11); q4-q7 (d8-d15) are callee-saved. */
__asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(opbridge_helium_fully_connected_rows)
        "push {r4-r11, lr}\n"
        "vpush {d8-d15}\n"
        "ldr r1, [r0, #20]\n"
        "vdup.32 q2, r1\n"
        "vldrw.32 q3, [r0, #48]\n"
        "vldrw.32 q4, [r0, #64]\n"
        "vldrw.32 q5, [r0, #80]\n"
        "vldrw.32 q6, [r0, #96]\n"
        "vldrw.32 q7, [r0, #112]\n"
        "ldr r1, [r0, #12]\n"
        "adr r2, 30f\n"
        "ldr r2, [r2, r1, lsl #2]\n"
        "ldr r3, [r0, #8]\n"
        "push {r2, r3}\n"
        "ldr r10, [r0, #4]\n"
        "ldr r8, [r0, #16]\n"
        "ldr r11, [r0, #24]\n"
        "ldr r6, [r0, #28]\n"
        "ldr r9, [r0, #32]\n"
        "ldr r1, [r0, #0]\n"
        "add r1, r1, r10\n"
        "1:\n"
        "sub r1, r1, r10\n"
        "mov r3, r9\n"
        "add r5, r3, r10\n"
        "add r7, r5, r10\n"
        "add r9, r7, r10\n"
        "ldrd r0, r2, [r8], #8\n"
        "ldrd r4, r12, [r8], #8\n"
        "ldr lr, [sp, #4]\n"
        "ldr pc, [sp]\n"
        "10:\n" OPBRIDGE_HELIUM_DOT4_BLOCK "11:\n" OPBRIDGE_HELIUM_DOT4_BLOCK "12:\n" OPBRIDGE_HELIUM_DOT4_BLOCK
        "13:\n" OPBRIDGE_HELIUM_DOT4_BLOCK
        "le lr, 10b\n"
        "vmov.32 q0[0], r0\n"
        "vmov.32 q0[1], r2\n"
        "vmov.32 q0[2], r4\n"
        "vmov.32 q0[3], r12\n"
        "vqrdmulh.s32 q0, q0, q3\n"
        "vshl.u32 q1, q0, q5\n" /* 1 for a negative value if there is a right shift, else 0 */
        "vqsub.s32 q0, q0, q1\n"
        "vrshl.s32 q0, q0, q4\n"
        "vadd.i32 q0, q0, q2\n"
        "vmax.s32 q0, q0, q6\n"
        "vmin.s32 q0, q0, q7\n"
        "vstrb.32 q0, [r6], #4\n"
        "subs r11, r11, #1\n"
        "bne 1b\n"
        "add sp, sp, #8\n"
        "vpop {d8-d15}\n"
        "pop {r4-r11, pc}\n"
        ".p2align 2\n"
        "30: .word 10b + 1, 11b + 1, 12b + 1, 13b + 1\n" /* Thumb addresses */
        OPBRIDGE_ASM_FUNCTION_END(opbridge_helium_fully_connected_rows));

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
  const opbridge_folded_requantization *rq = &params->requantization;
  /* Whole blocks with one shared multiplier and a shift that is not left (the usual per-tensor
   * quantization) take opbridge_helium_fully_connected_rows. */
  const int32_t assembly = whole_units > 0 && !rq->per_channel && rq->shifts[0] <= 0;
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    const int8_t *x = input + batch * depth;
    int8_t *row = output + batch * units;
    if (assembly) {
      const int32_t blocks = depth / 16;
      const int32_t iterations = (blocks + 3) / 4;
      const opbridge_fully_connected_job job = {
          x,
          depth,
          iterations,
          4 * iterations - blocks,
          rq->folded_bias,
          rq->output_offset,
          whole_units / 4,
          row,
          filter,
          {0, 0, 0},
          vdupq_n_s32(rq->multipliers[0]),
          vdupq_n_s32(rq->shifts[0]),
          vdupq_n_s32(rq->shifts[0] < 0 ? -31 : -32),
          vdupq_n_s32(rq->activation_min),
          vdupq_n_s32(rq->activation_max),
      };
      opbridge_helium_fully_connected_rows(&job);
    } else if (whole_units > 0) {
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

/* Rows shorter than 16 bytes: the input vector is one register with zeros past its end, so each
 * row is one plain 16-byte load (the bytes past the row, the next rows', meet those zeros) and one
 * VMLADAV; rows whose load would pass the end of the filter are loaded predicated. Four rows,
 * then their output stage in lanes. */
/* Four short rows' dot products with the zero-padded input, each row read 16 bytes at once. */
static inline int32x4_t opbridge_short_rows4(int8x16_t x, const int8_t *w, int32_t depth) {
  return opbridge_lanes(vmladavq_s8(x, vldrbq_s8(w)), vmladavq_s8(x, vldrbq_s8(w + depth)),
                        vmladavq_s8(x, vldrbq_s8(w + 2 * depth)), vmladavq_s8(x, vldrbq_s8(w + 3 * depth)));
}

int32_t opbridge_fully_connected_s8_folded_short(const opbridge_fully_connected_s8_folded_params *params,
                                                 const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_short_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  const opbridge_folded_requantization *rq = &params->requantization;
  const mve_pred16_t row = vctp8q((uint32_t)depth);
  /* Rows before this one can be read 16 bytes at a time without passing the filter's end. */
  const int32_t safe_rows = units - (16 + depth - 1) / depth + 1;
  const int32_t safe_groups = safe_rows > 0 ? safe_rows / 4 : 0;
  for (int32_t batch = 0; batch < params->batches; ++batch) {
    const int8x16_t x = vldrbq_z_s8(input + batch * depth, row);
    int8_t *destination = output + batch * units;
    const int8_t *w = filter;
    int32_t unit = 0;
    if (!rq->per_channel) {
      /* One multiplier and shift: the stage's constants stay in registers, and the rounding
       * correction (1 off a negative value before a rounding right shift) is one VSHL. */
      const int32_t shift = rq->shifts[0];
      const int32_t multiplier = rq->multipliers[0];
      const int32x4_t correction = vdupq_n_s32(shift < 0 ? -31 : -32);
      const int32_t left = shift > 0 ? shift : 0;
      const int32_t right = shift < 0 ? shift : 0;
      const int32x4_t minimum = vdupq_n_s32(rq->activation_min);
      const int32x4_t maximum = vdupq_n_s32(rq->activation_max);
      for (int32_t group = 0; group < safe_groups; ++group, unit += 4, w += 4 * depth) {
        int32x4_t acc = vaddq_s32(opbridge_short_rows4(x, w, depth), vldrwq_s32(rq->folded_bias + unit));
        acc = vqrdmulhq_n_s32(vshlq_r_s32(acc, left), multiplier);
        acc = vqsubq_s32(acc, vreinterpretq_s32_u32(vshlq_u32(vreinterpretq_u32_s32(acc), correction)));
        acc = vaddq_n_s32(vrshlq_n_s32(acc, right), rq->output_offset);
        vstrbq_s32(destination + unit, vminq_s32(vmaxq_s32(acc, minimum), maximum));
      }
    }
    for (int32_t group = unit / 4; group < safe_groups; ++group, unit += 4, w += 4 * depth) {
      const opbridge_lanes_output stage = opbridge_load_output(rq, unit, vctp32q(4));
      vstrbq_s32(destination + unit, opbridge_lanes_requantize(opbridge_short_rows4(x, w, depth), &stage));
    }
    for (; unit < units; unit += 4, w += 4 * depth) {
      const int32_t lanes = units - unit < 4 ? units - unit : 4;
      const mve_pred16_t mask = vctp32q((uint32_t)lanes);
      const opbridge_lanes_output stage = opbridge_load_output(rq, unit, mask);
      int32_t acc[4] = {0, 0, 0, 0};
      for (int32_t k = 0; k < lanes; ++k) {
        acc[k] = vmladavq_s8(x, vldrbq_z_s8(w + k * depth, row));
      }
      const int32x4_t sums = opbridge_lanes(acc[0], acc[1], acc[2], acc[3]);
      vstrbq_p_s32(destination + unit, opbridge_lanes_requantize(sums, &stage), mask);
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
  /* Whole groups of four without predication (GCC 12 puts a VPST before each predicated
   * instruction in a loop), then the rest. */
  int32_t remaining = params.count;
  for (; remaining >= 4; remaining -= 4) {
    const uint32x4_t first = vreinterpretq_u32_s32(vldrbq_s32(input1));
    const uint32x4_t second = vreinterpretq_u32_s32(vldrbq_s32(input2));
    int32x4_t sum = vaddq_s32(vldrwq_gather_shifted_offset_s32(table1, first),
                              vldrwq_gather_shifted_offset_s32(table2, second));
    sum = vqrdmulhq_n_s32(sum, params.output_multiplier);
    sum = vqaddq_s32(sum, vandq_s32(vshrq_n_s32(sum, 31), round_down));
    sum = vrshlq_s32(sum, right);
    sum = vaddq_n_s32(sum, params.output_offset);
    vstrbq_s32(output, vminq_s32(vmaxq_s32(sum, minimum), maximum));
    input1 += 4;
    input2 += 4;
    output += 4;
  }
  if (remaining > 0) {
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
  }
  return OPBRIDGE_STATUS_OK;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
