/* SPDX-License-Identifier: Apache-2.0 */
/* DEPTHWISE_CONV_2D's folded int8 forms (opbridge_depthwise_conv_2d_s8_folded*), Helium (MVE) variant
 * for the Cortex-M55. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include "cc/kernels/opbridge_folded_helium_internal.h"

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
  int32_t full_range; /* every channel shifts right and the activation range is all of int8 */
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

/* The output stage of the `lanes` (1 to 16) channels from `channel`; the lanes of channels past
 * them read nothing and hold 0 (their outputs are never stored). */
static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_load_stage16(const opbridge_folded_requantization *rq, int32_t channel,
                                  int32_t lanes, opbridge_stage16 *stage) {
  const uint32x4_t offsets = vidupq_n_u32(0, 4);
  stage->any_left = 0;
  int32_t all_right = 1;
  for (int32_t k = 0; k < 4; ++k) {
    const int32_t base = channel + opbridge_lane_order16[k];
    /* Lane i of this vector is channel base + 4 i. */
    const mve_pred16_t inside =
        vcmpltq_n_s32(vreinterpretq_s32_u32(vidupq_n_u32((uint32_t)opbridge_lane_order16[k], 4)), lanes);
    int32x4_t shift;
    if (rq->per_channel) {
      stage->multiplier[k] = vldrwq_gather_shifted_offset_z_s32(rq->multipliers + base, offsets, inside);
      shift = vldrwq_gather_shifted_offset_z_s32(rq->shifts + base, offsets, inside);
    } else {
      stage->multiplier[k] = vdupq_n_s32(rq->multipliers[0]);
      shift = vdupq_n_s32(rq->shifts[0]);
    }
    stage->bias[k] = vldrwq_gather_shifted_offset_z_s32(rq->folded_bias + base, offsets, inside);
    stage->left[k] = vmaxq_s32(shift, vdupq_n_s32(0));
    stage->right[k] = vminq_s32(shift, vdupq_n_s32(0));
    stage->round[k] = vshrq_n_s32(stage->right[k], 31);
    stage->any_left |= vmaxvq_s32(0, stage->left[k]) > 0;
    /* Lanes past `lanes` are never stored: only the channels inside decide. */
    all_right &= vmaxvq_p_s32(INT32_MIN, shift, inside) < 0 || !inside;
  }
  stage->full_range = all_right && rq->activation_min == -128 && rq->activation_max == 127;
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

/* The int16 products (even channels in q2, odd in q3) widened into the four accumulators. */
#define OPBRIDGE_DEPTHWISE_WIDEN16           \
  "   vmovlb.s16 q0, q2\n"                  \
  "   vadd.i32 %q[acc0], %q[acc0], q0\n"    \
  "   vmovlt.s16 q0, q2\n"                  \
  "   vadd.i32 %q[acc1], %q[acc1], q0\n"    \
  "   vmovlb.s16 q0, q3\n"                  \
  "   vadd.i32 %q[acc2], %q[acc2], q0\n"    \
  "   vmovlt.s16 q0, q3\n"                  \
  "   vadd.i32 %q[acc3], %q[acc3], q0\n"

/* The products of the inputs in q0 and the weights in q1, added to the accumulators. */
#define OPBRIDGE_DEPTHWISE_PRODUCTS16        \
  "   vmullb.s8 q2, q0, q1\n"               \
  "   vmullt.s8 q3, q0, q1\n" OPBRIDGE_DEPTHWISE_WIDEN16


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
  int32_t pairs;            /* columns / 2: the paired loops' pairs of taps per window row */
} opbridge_row16;

/* Its members are int32_t and pointers of 4 bytes: at 0, 4, ..., 36 in this order. */
typedef char opbridge_row16_layout[(sizeof(void *) == 4 && offsetof(opbridge_row16, offset) == 32 &&
                                    offsetof(opbridge_row16, pairs) == 36)
                                       ? 1
                                       : -1];

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

/* A function running `count` neighbouring output positions of a block of 16 channels in
 * assembly (GCC 12 spills the accumulators between taps and output stage): per position the
 * window's taps from `origin` (TAPS), then the output stage and one 16-byte store (END). Its
 * variants differ in those two only. */
#define OPBRIDGE_ROW16_FUNCTION(name, TAPS, END)                                                         \
  static void __attribute__((noinline)) name(const opbridge_row16 *row, const opbridge_stage16 *stage,   \
                                             const int8_t *origin, int8_t *destination, int32_t count) { \
    int32x4_t acc0, acc1, acc2, acc3;                                                                    \
    const int8_t *x;                                                                                     \
    const int8_t *w;                                                                                     \
    int32_t rows, tap_step, weight_step, scratch;                                                        \
    __asm__ volatile(OPBRIDGE_ROW16_START TAPS END OPBRIDGE_ROW16_OPERANDS);                             \
    (void)tap_step; /* the paired variants step by 16 without it */                                     \
  }

/* The window tap by tap: OPBRIDGE_DEPTHWISE_TAP16, 14 instructions each, 5 more a window row. */
#define OPBRIDGE_ROW16_TAPS                       \
  "   ldr      %[tap_step], [%[row], #12]\n"      \
  "   ldr      %[weight_step], [%[row], #16]\n"   \
  "0: ldr      lr, [%[row], #8]\n"                \
  "   dls      lr, lr\n"                          \
  "1:\n" OPBRIDGE_DEPTHWISE_TAP16                 \
  "   add      %[x], %[x], %[tap_step]\n"         \
  "   le       lr, 1b\n"                          \
  "   ldr      %[scratch], [%[row], #20]\n"       \
  "   add      %[x], %[x], %[scratch]\n"          \
  "   subs     %[rows], %[rows], #1\n"            \
  "   bne      0b\n"

OPBRIDGE_ROW16_FUNCTION(opbridge_depthwise_row16, OPBRIDGE_ROW16_TAPS, OPBRIDGE_ROW16_END)

/* Two neighbouring taps of a window row (dilation 1: STEP bytes apart in the lines, 16 or, for
 * two positions of 8 channels, 8), their products summed as int16 before they are widened: 21
 * instructions, where two OPBRIDGE_DEPTHWISE_TAP16 take 28. Exact when no weight is -128: a
 * product of int8 values then lies within [-16256, 16384], two of them within int16. The second
 * tap's even products overwrite its weights (VMULLB.S8 with Qd = Qm: 8-bit elements, allowed),
 * which are loaded again for the odd ones: every other Q register holds an accumulator or the
 * first tap's products. */
#define OPBRIDGE_DEPTHWISE_PAIR(STEP)         \
  "   vldrb.8 q0, [%[x]], #" STEP "\n"        \
  "   vldrb.8 q1, [%[w]]\n"                   \
  "   add     %[w], %[w], %[weight_step]\n"   \
  "   vmullb.s8 q2, q0, q1\n"                 \
  "   vmullt.s8 q3, q0, q1\n"                 \
  "   vldrb.8 q0, [%[x]], #" STEP "\n"        \
  "   vldrb.8 q1, [%[w]]\n"                   \
  "   vmullb.s8 q1, q0, q1\n"                 \
  "   vadd.i16 q2, q2, q1\n"                  \
  "   vldrb.8 q1, [%[w]]\n"                   \
  "   add     %[w], %[w], %[weight_step]\n"   \
  "   vmullt.s8 q1, q0, q1\n"                 \
  "   vadd.i16 q3, q3, q1\n"                  \
  OPBRIDGE_DEPTHWISE_WIDEN16

/* The last tap of a window row of an odd number of taps, the input pointer advanced by the load. */
#define OPBRIDGE_DEPTHWISE_LAST_TAP(STEP)   \
  "   vldrb.8 q0, [%[x]], #" STEP "\n"      \
  "   vldrb.8 q1, [%[w]]\n"                 \
  "   add     %[w], %[w], %[weight_step]\n" \
  OPBRIDGE_DEPTHWISE_PRODUCTS16

/* acc<k> rescaled in place when every channel shifts right: the rounding correction (-1 for a
 * negative value) needs no mask. */
#define OPBRIDGE_STAGE16_SCALE_FULL_RANGE(k)                                      \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_MULTIPLIER " + " #k " * 16]\n" \
  "   vqrdmulh.s32 %q[acc" #k "], %q[acc" #k "], q0\n"                            \
  "   vshr.s32 q1, %q[acc" #k "], #31\n"                                          \
  "   vqadd.s32 %q[acc" #k "], %q[acc" #k "], q1\n"                               \
  "   vldrw.32 q0, [%[stage], #" OPBRIDGE_STAGE16_RIGHT " + " #k " * 16]\n"      \
  "   vrshl.s32 %q[acc" #k "], %q[acc" #k "], q0\n"

/* OPBRIDGE_ROW16_END where every channel shifts right and the activation range is all of int8
 * (stage->full_range): no left shift to test for, and the narrows to bytes saturate, which is the
 * clamp: 40 instructions, not 57. */
#define OPBRIDGE_ROW16_END_FULL_RANGE                                      \
  OPBRIDGE_STAGE16_SCALE_FULL_RANGE(0)                                     \
  OPBRIDGE_STAGE16_SCALE_FULL_RANGE(1)                                     \
  OPBRIDGE_STAGE16_SCALE_FULL_RANGE(2)                                     \
  OPBRIDGE_STAGE16_SCALE_FULL_RANGE(3)                                     \
  "   vqmovnb.s32 q0, %q[acc0]\n"                                          \
  "   vqmovnt.s32 q0, %q[acc1]\n"                                          \
  "   vqmovnb.s32 q1, %q[acc2]\n"                                          \
  "   vqmovnt.s32 q1, %q[acc3]\n"                                          \
  "   ldr      %[scratch], [%[row], #32]\n"                                \
  "   vqadd.s16 q0, q0, %[scratch]\n"                                      \
  "   vqadd.s16 q1, q1, %[scratch]\n"                                      \
  "   vqmovnb.s16 q2, q0\n"                                                \
  "   vqmovnt.s16 q2, q1\n"                                                \
  "   vstrb.8  q2, [%[destination]]\n"                                     \
  "   ldr      %[scratch], [%[row], #28]\n"                                \
  "   add      %[destination], %[destination], %[scratch]\n"               \
  "   ldr      %[scratch], [%[row], #24]\n"                                \
  "   add      %[origin], %[origin], %[scratch]\n"                         \
  "   subs     %[count], %[count], #1\n"                                   \
  "   bne      2b\n"

/* The paired loop over a window of rows of an odd number of taps, dilation 1, taps STEP bytes
 * apart: per row the pairs, then the last tap. */
#define OPBRIDGE_ROW16_PAIRED_TAPS(STEP)               \
  "   ldr      %[weight_step], [%[row], #16]\n"        \
  "0: ldr      lr, [%[row], #36]\n"                    \
  "   wls      lr, lr, 3f\n"                           \
  "1:\n" OPBRIDGE_DEPTHWISE_PAIR(STEP)                 \
  "   le       lr, 1b\n"                               \
  "3:\n" OPBRIDGE_DEPTHWISE_LAST_TAP(STEP)             \
  "   ldr      %[scratch], [%[row], #20]\n"            \
  "   add      %[x], %[x], %[scratch]\n"               \
  "   subs     %[rows], %[rows], #1\n"                 \
  "   bne      0b\n"

/* opbridge_depthwise_row16 for windows not dilated along x whose rows have an odd number of taps
 * (3x3, 5x5, 7x7, ...) and filters with no weight of -128: taps in pairs
 * (OPBRIDGE_DEPTHWISE_PAIR), the output stage of opbridge_depthwise_row16 or, where
 * stage->full_range, the short one. */
OPBRIDGE_ROW16_FUNCTION(opbridge_depthwise_row16_paired, OPBRIDGE_ROW16_PAIRED_TAPS("16"), OPBRIDGE_ROW16_END)
OPBRIDGE_ROW16_FUNCTION(opbridge_depthwise_row16_paired_full_range, OPBRIDGE_ROW16_PAIRED_TAPS("16"),
                        OPBRIDGE_ROW16_END_FULL_RANGE)
/* The same over two positions of 8 channels a vector (opbridge_depthwise_conv_2d_s8_folded_8_channels):
 * neighbouring taps 8 bytes apart in the lines. */
OPBRIDGE_ROW16_FUNCTION(opbridge_depthwise_row8x2_paired, OPBRIDGE_ROW16_PAIRED_TAPS("8"), OPBRIDGE_ROW16_END)
OPBRIDGE_ROW16_FUNCTION(opbridge_depthwise_row8x2_paired_full_range, OPBRIDGE_ROW16_PAIRED_TAPS("8"),
                        OPBRIDGE_ROW16_END_FULL_RANGE)

typedef void (*opbridge_row16_fn)(const opbridge_row16 *, const opbridge_stage16 *, const int8_t *, int8_t *,
                                  int32_t);

/* The stack opbridge_depthwise_lines16 copies window lines into (filter height x the input
 * columns of a chunk of output positions x 16 bytes). */
#define OPBRIDGE_DEPTHWISE_LINES_BYTES 1024
/* The most bytes of padded weights (taps x 16) the partial block copies onto the stack: a 7x7
 * window's 784. */
#define OPBRIDGE_DEPTHWISE_PARTIAL_WEIGHT_BYTES 800

/* Where opbridge_depthwise_lines16 reads a block's weights and writes its outputs. A whole block
 * reads the filter in place and stores 16 bytes per position; a partial block (the channels after
 * the last whole block) reads weights padded to 16 per tap with zeros, and its row of outputs goes
 * to `staged` (16 bytes per position) first, from where only its `lanes` bytes per position are
 * stored: a 16-byte store would overwrite the next position's channels. */
typedef struct {
  const int8_t *taps;
  int32_t weight_step;
  int32_t lanes;  /* 16 for a whole block */
  int8_t *staged; /* a partial block's */
  int32_t paired; /* no weight is -128 and the window is not dilated along x: taps may go in pairs */
} opbridge_block16;

/* The stage of 8 channels (lanes 0-7, loaded by opbridge_load_stage16) repeated in lanes 8-15, which
 * hold the next position's channels: each stage vector holds channels c, c + 4, c + 8, c + 12. */
static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_stage16_repeat8(opbridge_stage16 *stage) {
  for (int32_t k = 0; k < 4; ++k) {
    int32x4_t *fields[5] = {&stage->bias[k], &stage->multiplier[k], &stage->left[k], &stage->right[k],
                            &stage->round[k]};
    for (int32_t f = 0; f < 5; ++f) {
      int32x4_t v = *fields[f];
      v = vsetq_lane_s32(vgetq_lane_s32(v, 0), v, 2);
      v = vsetq_lane_s32(vgetq_lane_s32(v, 1), v, 3);
      *fields[f] = v;
    }
  }
}

/* Bytes [from, until) of a line set to the zero point, or copied from `source`. */
static inline void opbridge_line_fill(int8_t *line, int32_t from, int32_t until, int8x16_t zero_points) {
  for (int32_t i = from; i < until; i += 16) {
    vstrbq_p_s8(line + i, zero_points, vctp8q((uint32_t)(until - i)));
  }
}

static inline void opbridge_line_copy(int8_t *line, int32_t from, int32_t until, const int8_t *source) {
  for (int32_t i = from; i < until; i += 16) {
    const mve_pred16_t kept = vctp8q((uint32_t)(until - i));
    vstrbq_p_s8(line + i, vldrbq_z_s8(source + (i - from), kept), kept);
  }
}

/* Every output position of one block of 16 channels (depth multiplier 1), or of its first
 * `block->lanes`, its output stage loaded once. For each output row, a chunk of positions at a
 * time (as many as the line buffer holds), the block's 16 channels of the input rows their windows
 * read are copied once, with the input zero point where they overhang the input (its products
 * cancel the folded bias's share of those taps, as TFLite Micro's skipping them does), so that
 * every window is read alike, without a test per position or per tap. */
static inline __attribute__((always_inline)) void opbridge_depthwise_lines16_body(
    const opbridge_conv_s8_folded_params *params, const opbridge_depthwise_window *window, const int8_t *image,
    const opbridge_block16 *block, int32_t channel, int32_t chunk, int8_t *destination, const int partial,
    const int two_positions) {
  int8_t lines[OPBRIDGE_DEPTHWISE_LINES_BYTES] __attribute__((aligned(16)));
  opbridge_stage16 stage;
  const int32_t lanes = block->lanes;
  opbridge_load_stage16(&params->requantization, channel, lanes, &stage);
  if (two_positions) { /* lanes 8-15 hold the next position's channels 0-7 */
    opbridge_stage16_repeat8(&stage);
  }
  /* The lanes a partial block copies: loads of the others read nothing (and give 0). */
  const mve_pred16_t copied = vctp8q((uint32_t)lanes);
  const int8x16_t zero_points = vdupq_n_s8((int8_t)(-window->input_offset));
  const int32_t channels = window->channels;
  const int32_t columns = window->filter_width;
  const int32_t stride = params->stride_width;
  const int32_t x_span = (columns - 1) * params->dilation_width;
  /* A line holds the input columns of `chunk` neighbouring output positions: 16 bytes each (one
   * block of channels), or 8 for two positions of 8 channels a vector, whose lines are whole
   * 16-byte vectors. */
  const int32_t column_bytes = two_positions ? 8 : 16;
  /* Two positions a vector: one column more, for the pair of an odd count's last position. */
  const int32_t line_columns = (chunk - 1) * stride + x_span + 1 + (two_positions ? 1 : 0);
  const int32_t line_bytes = two_positions ? (line_columns + 1) / 2 * 16 : line_columns * 16;
  const int32_t tap_step = params->dilation_width * column_bytes;
  const int32_t row_skip = line_bytes - columns * tap_step;
  const int32_t position_step = two_positions ? 16 : stride * 16; /* two positions of stride 1 */
  const int8_t *first_channel = image + channel;
  int8_t *const staged = partial ? block->staged : NULL;
  const opbridge_row16 row = {block->taps,
                              window->filter_height,
                              columns,
                              tap_step,
                              block->weight_step,
                              row_skip,
                              position_step,
                              partial || two_positions ? 16 : channels,
                              params->requantization.output_offset,
                              columns / 2};
  /* Rows of an odd number of taps go in pairs when the block allows it; others tap by tap. */
  opbridge_row16_fn run = opbridge_depthwise_row16;
  if (block->paired && columns % 2 == 1) {
    run = stage.full_range ? opbridge_depthwise_row16_paired_full_range : opbridge_depthwise_row16_paired;
    if (two_positions) {
      run = stage.full_range ? opbridge_depthwise_row8x2_paired_full_range : opbridge_depthwise_row8x2_paired;
    }
  }
  /* With stride and dilation 1 along y, the next output row's window lines are this row's less
   * the first, plus one: the buffer holds as many lines as fit, each output row copies its one
   * new line, and when the buffer is full the lines kept move to its front. */
  const int32_t rolling = params->stride_height == 1 && params->dilation_height == 1;
  const int32_t capacity = OPBRIDGE_DEPTHWISE_LINES_BYTES / line_bytes; /* at least filter_height */
  const int32_t kept_bytes = (window->filter_height - 1) * line_bytes;
  for (int32_t first = 0; first < params->output.width; first += chunk) {
    const int32_t count = params->output.width - first < chunk ? params->output.width - first : chunk;
    /* The line's first column is input column x_first; [left, right) lie inside the input. */
    const int32_t x_first = first * stride - params->padding_width;
    /* (An odd count's last pair reads the spare column, set so that it reads defined bytes; the
     * lanes it feeds are not stored.) */
    const int32_t used = (count - 1) * stride + x_span + 1 + (two_positions ? count % 2 : 0);
    int32_t left = -x_first < 0 ? 0 : -x_first;
    left = left < used ? left : used;
    int32_t right = window->width - x_first < used ? window->width - x_first : used;
    right = right < left ? left : right;
    int32_t base = 0; /* the line of the window's first row */
    for (int32_t oy = 0; oy < params->output.height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      int32_t fy = 0; /* the first window row to copy */
      if (rolling && oy > 0) {
        fy = window->filter_height - 1;
        if (++base + window->filter_height > capacity) {
          for (int32_t i = 0; i < kept_bytes; i += 16) { /* forward: the destination lies below */
            vst1q_s8(lines + i, vld1q_s8(lines + base * line_bytes + i));
          }
          base = 0;
        }
      }
      int8_t *line = lines + (base + fy) * line_bytes;
      for (; fy < window->filter_height; ++fy, line += line_bytes) {
        const int32_t iy = y_origin + fy * params->dilation_height;
        const int32_t inside_from = iy >= 0 && iy < window->height ? left : used; /* no column inside */
        const int8_t *source = first_channel + (iy * window->width + x_first + left) * channels;
        if (two_positions) { /* the input's columns are 8 bytes, as the line's: one run of bytes */
          const int32_t inside_until = right > inside_from ? right : inside_from;
          opbridge_line_fill(line, 0, 8 * inside_from, zero_points);
          opbridge_line_copy(line, 8 * inside_from, 8 * inside_until, source);
          opbridge_line_fill(line, 8 * inside_until, 8 * used, zero_points);
          continue;
        }
        for (int32_t j = 0; j < inside_from; ++j) {
          vst1q_s8(line + j * 16, zero_points);
        }
        if (!partial) {
          for (int32_t j = inside_from; j < right; ++j, source += channels) {
            vst1q_s8(line + j * 16, vld1q_s8(source));
          }
        } else {
          for (int32_t j = inside_from; j < right; ++j, source += channels) {
            vst1q_s8(line + j * 16, vldrbq_z_s8(source, copied));
          }
        }
        for (int32_t j = right > inside_from ? right : inside_from; j < used; ++j) {
          vst1q_s8(line + j * 16, zero_points);
        }
      }
      int8_t *output = destination + (oy * params->output.width + first) * channels;
      const int8_t *window_lines = lines + base * line_bytes;
      if (two_positions) { /* whole pairs, each one 16-byte store */
        run(&row, &stage, window_lines, output, count / 2);
        if (count % 2) { /* the last position's pair staged: its second half is past the row */
          int8_t last[16];
          run(&row, &stage, window_lines + (count - 1) * 8, last, 1);
          vstrbq_p_s8(output + (count - 1) * 8, vld1q_s8(last), vctp8q(8));
        }
        continue;
      }
      if (!partial) {
        run(&row, &stage, window_lines, output, count);
        continue;
      }
      run(&row, &stage, window_lines, staged, count);
      for (int32_t p = 0; p < count; ++p, output += channels) {
        vstrbq_p_s8(output, vld1q_s8(staged + p * 16), copied);
      }
    }
  }
}

/* The body above for a whole block and for a partial one: each compiled on its own, so that a
 * whole block's loops carry nothing of the partial block's. */
static void __attribute__((noinline)) opbridge_depthwise_lines16(const opbridge_conv_s8_folded_params *params,
                                                                 const opbridge_depthwise_window *window,
                                                                 const int8_t *image, const opbridge_block16 *block,
                                                                 int32_t channel, int32_t chunk,
                                                                 int8_t *destination) {
  opbridge_depthwise_lines16_body(params, window, image, block, channel, chunk, destination, 0, 0);
}

static void __attribute__((noinline)) opbridge_depthwise_lines16_partial(
    const opbridge_conv_s8_folded_params *params, const opbridge_depthwise_window *window, const int8_t *image,
    const opbridge_block16 *block, int32_t channel, int32_t chunk, int8_t *destination) {
  opbridge_depthwise_lines16_body(params, window, image, block, channel, chunk, destination, 1, 0);
}

/* Two positions of 8 channels a vector (opbridge_depthwise_conv_2d_s8_folded_8_channels). */
static void __attribute__((noinline)) opbridge_depthwise_lines8x2(const opbridge_conv_s8_folded_params *params,
                                                                  const opbridge_depthwise_window *window,
                                                                  const int8_t *image, const opbridge_block16 *block,
                                                                  int32_t chunk, int8_t *destination) {
  opbridge_depthwise_lines16_body(params, window, image, block, 0, chunk, destination, 0, 1);
}

/* The channels after the last whole block of 16 (1 to 15 of them: MobileNet's 8, the 8 after 16
 * in 24 or after 64 in 72), as one partial block through the same assembly: their weights padded
 * to 16 lanes per tap on the stack, their outputs staged. False (nothing done) when the padded
 * weights do not fit, for the caller's four-channel path. */
static int32_t __attribute__((noinline)) opbridge_depthwise_partial16(const opbridge_conv_s8_folded_params *params,
                                                                      const opbridge_depthwise_window *window,
                                                                      const int8_t *image, const int8_t *filter,
                                                                      int32_t channel, int32_t chunk, int32_t paired,
                                                                      int8_t *destination) {
  int8_t weights[OPBRIDGE_DEPTHWISE_PARTIAL_WEIGHT_BYTES];
  int8_t staged[OPBRIDGE_DEPTHWISE_LINES_BYTES];
  const int32_t taps = window->filter_height * window->filter_width;
  if (taps * 16 > OPBRIDGE_DEPTHWISE_PARTIAL_WEIGHT_BYTES || chunk * 16 > OPBRIDGE_DEPTHWISE_LINES_BYTES) {
    return 0;
  }
  const int32_t lanes = window->channels - channel;
  const mve_pred16_t copied = vctp8q((uint32_t)lanes);
  for (int32_t t = 0; t < taps; ++t) {
    vst1q_s8(weights + t * 16, vldrbq_z_s8(filter + t * window->channels + channel, copied));
  }
  const opbridge_block16 block = {weights, 16, lanes, staged, paired};
  opbridge_depthwise_lines16_partial(params, window, image, &block, channel, chunk, destination);
  return 1;
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

/* opbridge_depthwise_conv_2d_s8_folded and its _whole16 form: `partial` (a constant) 0 leaves out
 * the partial block (opbridge_depthwise_partial16 and its line buffer), whose channels then run four
 * at a time, so that a module whose layers all have channels in whole blocks of 16 neither links
 * that path nor counts its stack. */
static inline __attribute__((always_inline)) OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_depthwise_folded_body(
    const opbridge_conv_s8_folded_params *params, const int8_t *input, const int8_t *filter, int8_t *output,
    const int32_t partial) {
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
  /* Taps go in pairs (opbridge_depthwise_row16_paired: int16 sums of two products) when no
   * weight is -128 and the window is not dilated along x. */
  int32_t paired = dilation_width == 1;
  const int32_t filter_bytes = window.filter_height * window.filter_width * channels;
  for (int32_t i = 0; paired && i < filter_bytes; i += 16) {
    const mve_pred16_t lanes = vctp8q((uint32_t)(filter_bytes - i));
    paired = vminvq_p_s8(INT8_MAX, vldrbq_z_s8(filter + i, lanes), lanes) > INT8_MIN;
  }
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * image_bytes;
    int8_t *batch_output = output + b * out.height * out.width * channels;
    for (int32_t c = 0; c < whole_blocks; c += 16) {
      const opbridge_block16 block = {filter + c, channels, 16, NULL, paired};
      opbridge_depthwise_lines16(params, &window, image, &block, c, chunk, batch_output + c);
    }
    /* The channels after the last whole block of 16: one partial block, or (when its weights or
     * a window do not fit the buffers) four at a time over every position. */
    int32_t rest = whole_blocks;
    if (partial && chunk > 0 && rest < channels &&
        opbridge_depthwise_partial16(params, &window, image, filter, rest, chunk, paired, batch_output + rest)) {
      rest = channels;
    }
    for (int32_t c = rest; c < channels; c += 4) {
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
          vstrbq_p_s32(destination, opbridge_lanes_requantize_outlined(acc, &stage), mask);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_depthwise_conv_2d_s8_folded(const opbridge_conv_s8_folded_params *params,
                                                                        const int8_t *input, const int8_t *filter,
                                                                        int8_t *output) {
  return opbridge_depthwise_folded_body(params, input, filter, output, 1);
}

/* Flattened: its checks inlined (as in the plain form, which is then their only other caller), not a call. */
__attribute__((flatten)) OPBRIDGE_OPTIMIZE_FOR_SIZE int32_t opbridge_depthwise_conv_2d_s8_folded_whole16(
    const opbridge_conv_s8_folded_params *params, const int8_t *input, const int8_t *filter, int8_t *output) {
  return opbridge_depthwise_folded_body(params, input, filter, output, 0);
}

/* DEPTHWISE_CONV_2D over planes (opbridge_depthwise_conv_2d_s8_folded_planar): one channel at a
 * time, the input rows its windows read copied into a plane column by column (a column's
 * filter-height bytes together), so that each window's taps are contiguous and one output is a
 * dot product along them (opbridge_plane_channel_of, opbridge_folded_planes_helium.c), against 21
 * instructions per two taps of 16 channels in lines of channels (above). The plane's rows are a
 * ring: input row y sits in slot y mod filter_height of every column, so an output row copies
 * only the rows the one before it did not read, and the window's weights are gathered for the
 * row's slot rotation. */

/* y mod filter height, for rows above the input too. */
static inline int32_t opbridge_plane_slot_of(int32_t y, int32_t filter_height) {
  const int32_t slot = y % filter_height;
  return slot < 0 ? slot + filter_height : slot;
}

/* Where a channel's taps (gathered in the filter's order) sit for the window's bytes in the plane
 * under each slot rotation r: plane byte x * height + s holds window row (s - r) mod height of
 * column x; bytes past the taps read byte 64 (a zero). */
static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_plane_rotations(int32_t filter_height, int32_t filter_width,
                                                                int32_t vector_bytes, uint8_t *rotations) {
  for (int32_t r = 0; r < filter_height; ++r, rotations += vector_bytes) {
    int32_t i = 0;
    for (int32_t x = 0; x < filter_width; ++x) {
      for (int32_t s = 0; s < filter_height; ++s, ++i) {
        const int32_t row = s - r < 0 ? s - r + filter_height : s - r;
        rotations[i] = (uint8_t)(row * filter_width + x);
      }
    }
    for (; i < vector_bytes; ++i) {
      rotations[i] = OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS;
    }
  }
}

int32_t opbridge_depthwise_conv_2d_s8_folded_planar(const opbridge_conv_s8_folded_params *params,
                                                    const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_planar_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  int8_t plane[OPBRIDGE_DEPTHWISE_PLANE_BYTES] __attribute__((aligned(16)));
  uint8_t rotations[OPBRIDGE_DEPTHWISE_PLANE_WEIGHT_BYTES] __attribute__((aligned(16)));
  int8_t taps[OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS + 16] __attribute__((aligned(16)));
  const opbridge_dims in = params->input;
  const opbridge_dims out = params->output;
  const int32_t filter_height = params->filter.height;
  const int32_t tap_count = filter_height * params->filter.width;
  const int32_t channels = in.channels;
  const int32_t vector_bytes = 16 * ((tap_count + 15) / 16);
  const opbridge_plane_channel_fn run_plain =
      opbridge_plane_channel_of(vector_bytes / 16, params->stride_width * filter_height, 0);
  const opbridge_plane_channel_fn run_shifting_left =
      opbridge_plane_channel_of(vector_bytes / 16, params->stride_width * filter_height, 1);
  const opbridge_folded_requantization *rq = &params->requantization;
  /* The plane's columns left and right of the input hold the zero point from here on; byte 64
   * of the taps is the zero that the window's bytes past the taps read. */
  for (int32_t i = 0; i < OPBRIDGE_DEPTHWISE_PLANE_BYTES; i += 16) {
    vst1q_s8(plane + i, vdupq_n_s8((int8_t)(-params->input_offset)));
  }
  vst1q_s8(taps + OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS, vdupq_n_s8(0));
  opbridge_plane_rotations(filter_height, params->filter.width, vector_bytes, rotations);
  opbridge_plane_channel_job job;
  job.window = plane;
  job.window_step = params->stride_width * filter_height;
  job.destination_step = 4 * channels;
  job.groups = out.width / 4;
  job.tail = out.width % 4;
  job.offset = rq->output_offset;
  job.taps = taps;
  job.rotations = rotations;
  job.output_row_bytes = out.width * channels;
  job.minimum = vdupq_n_s32(rq->activation_min);
  job.maximum = vdupq_n_s32(rq->activation_max);
  job.offsets = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)channels);
  job.height = in.height;
  job.row_bytes = in.width * channels;
  job.columns = opbridge_plane_inside_columns(params);
  job.first_column = plane + params->padding_width * filter_height;
  job.filter_height = filter_height;
  job.input_step = 8 * channels;
  job.plane_step = 8 * filter_height;
  job.stride_height = params->stride_height;
  job.vector_bytes = vector_bytes;
  job.input_offsets = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)channels);
  job.plane_offsets = vmulq_n_u16(vidupq_n_u16(0, 1), (uint16_t)filter_height);
  job.zero_points = vdupq_n_s16((int16_t)(-params->input_offset));
  const int32_t first_row = -params->padding_height;
  const int32_t first_slot = opbridge_plane_slot_of(first_row, filter_height);
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * in.height * job.row_bytes;
    for (int32_t c = 0; c < channels; ++c) {
      /* The channel's taps, 8 a gather. */
      for (int32_t t = 0; t < tap_count; t += 8) {
        const mve_pred16_t lanes = vctp16q((uint32_t)(tap_count - t));
        vstrbq_p_s16(taps + t, vldrbq_gather_offset_z_s16(filter + t * channels + c, job.input_offsets, lanes),
                     lanes);
      }
      opbridge_plane_job_channel(&job, rq, c);
      job.destination = output + b * out.height * out.width * channels + c;
      job.rows_left = out.height;
      job.y = first_row;
      job.y_end = first_row + filter_height;
      job.slot = first_slot;
      /* An address, not read while the row lies outside the input (above it: before the image). */
      job.source = (uintptr_t)(image + c) + (uintptr_t)((intptr_t)first_row * job.row_bytes);
      (job.left > 0 ? run_shifting_left : run_plain)(&job);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* DEPTHWISE_CONV_2D of exactly 8 channels with stride 1 along x (MobileNet v1 0.25's first
 * depthwise layer): two neighbouring positions fill one 16-lane vector, where one position per
 * vector leaves half of it padding. Lines of 8-byte columns (the input's own), each tap one 16-byte
 * load of two positions' inputs against the tap's 8 weights twice, the output stage's constants
 * repeated in lanes 8-15, the two positions' outputs one 16-byte store (a row's odd last position
 * staged). Any width: a patch stage runs it on tiles of any size. */
int32_t opbridge_depthwise_conv_2d_s8_folded_8_channels(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_depthwise_8_channels_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_dims in = params->input;
  const opbridge_dims out = params->output;
  const opbridge_depthwise_window window = {
      in.height,
      in.width,
      8,
      params->filter.height,
      params->filter.width,
      params->dilation_height * in.width * 8,
      params->dilation_width * 8,
      params->input_offset,
  };
  const int32_t taps = window.filter_height * window.filter_width;
  /* Each tap's 8 weights twice; taps in pairs when no weight is -128 (int16 sums of two products). */
  int8_t weights[OPBRIDGE_DEPTHWISE_PARTIAL_WEIGHT_BYTES] __attribute__((aligned(16)));
  int32_t paired = params->dilation_width == 1;
  const mve_pred16_t eight = vctp8q(8);
  for (int32_t t = 0; t < taps; ++t) {
    const int8x16_t tap = vldrbq_z_s8(filter + 8 * t, eight);
    paired &= vminvq_p_s8(INT8_MAX, tap, eight) > INT8_MIN;
    vst1q_s8(weights + 16 * t, tap);
    vstrbq_p_s8(weights + 16 * t + 8, tap, eight);
  }
  /* Positions per chunk: as many pairs as lines of whole vectors (and a spare column) fit the buffer. */
  const int32_t x_span = (window.filter_width - 1) * params->dilation_width;
  const int32_t line_columns = OPBRIDGE_DEPTHWISE_LINES_BYTES / window.filter_height / 16 * 2;
  int32_t chunk = (line_columns - x_span - 1) / 2 * 2;
  chunk = chunk > out.width ? out.width : chunk;
  const opbridge_block16 block = {weights, 16, 8, NULL, paired};
  for (int32_t b = 0; b < out.batches; ++b) {
    opbridge_depthwise_lines8x2(params, &window, input + b * in.height * in.width * 8, &block, chunk,
                                output + b * out.height * out.width * 8);
  }
  return OPBRIDGE_STATUS_OK;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
