/* SPDX-License-Identifier: Apache-2.0 */
/* CONV_2D's folded int8 forms (opbridge_conv_2d_s8_folded*), Helium (MVE) variant for the Cortex-M55. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include "cc/kernels/opbridge_folded_helium_internal.h"

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
 * opbridge_lanes_requantize without the left shift, 28 instructions per four units. The sums
 * enter the vector one lane at a time: the two-lane VMOV is avoided, as assemblers and
 * emulators have disagreed on which register goes to which lane. The last row's last block must
 * not pass the end of the filter: opbridge_plan_units gives such a group a copy of its rows. */
/* The output stage's first part, shared by every variant: the four sums into q0 (a lane at a
 * time), the folded bias added and the multiplier applied; the shifts left in q1. S names the
 * operand pointing at the opbridge_units_stage (or a struct that begins with one). */
#define OPBRIDGE_UNITS_STAGE_SCALE(S)                      \
  "   vmov.32  q0[0], %[a0]\n"                             \
  "   vmov.32  q0[1], %[a1]\n"                             \
  "   vmov.32  q0[2], %[a2]\n"                             \
  "   vmov.32  q0[3], %[a3]\n"                             \
  "   vldrw.32 q1, [%[bias]], #16\n"                       \
  "   vadd.i32 q0, q0, q1\n"                               \
  "   ldr      %[a0], [%[" S "], #16]\n"                   \
  "   vldrw.32 q1, [%[multipliers]]\n"                     \
  "   add      %[multipliers], %[multipliers], %[a0]\n"    \
  "   vqrdmulh.s32 q0, q0, q1\n"                           \
  "   vldrw.32 q1, [%[shifts]]\n"                          \
  "   add      %[shifts], %[shifts], %[a0]\n"

/* The rest of opbridge_lanes_requantize without the left shift: the rounding correction where a
 * channel shifts right, the rounding shift, the offset, the activation bounds, the store. */
#define OPBRIDGE_UNITS_STAGE_CLAMPED(S)                    \
  "   vshr.s32 q2, q1, #31\n"                              \
  "   vshr.s32 q3, q0, #31\n"                              \
  "   vand     q2, q2, q3\n"                               \
  "   vqadd.s32 q0, q0, q2\n"                              \
  "   vrshl.s32 q0, q0, q1\n"                              \
  "   ldr      %[a0], [%[" S "], #20]\n"                   \
  "   vadd.i32 q0, q0, %[a0]\n"                            \
  "   ldr      %[a0], [%[" S "], #24]\n"                   \
  "   vdup.32  q1, %[a0]\n"                                \
  "   vmax.s32 q0, q0, q1\n"                               \
  "   ldr      %[a0], [%[" S "], #28]\n"                   \
  "   vdup.32  q1, %[a0]\n"                                \
  "   vmin.s32 q0, q0, q1\n"                               \
  "   vstrb.32 q0, [%[destination]], #4\n"

/* The same where every unit shifts right by at least 1 and the activation range is the whole of
 * int8 (no activation, or RELU and RELU6 onto an output zero point of -128, as converters write
 * them): a negative sum always takes TFLite's -1 before the rounding shift (no test of the
 * shift), and two saturating narrows (32 to 16 to 8 bits) clamp to [-128, 127]: 21 instructions
 * per four units with the first part and the loop, not 28. */
#define OPBRIDGE_UNITS_STAGE_FULL_RANGE(S)                 \
  "   vshr.s32 q3, q0, #31\n"                              \
  "   vqadd.s32 q0, q0, q3\n"                              \
  "   vrshl.s32 q0, q0, q1\n"                              \
  "   ldr      %[a0], [%[" S "], #20]\n"                   \
  "   vadd.i32 q0, q0, %[a0]\n"                            \
  "   vqmovnb.s32 q0, q0\n"                                \
  "   vqmovnb.s16 q0, q0\n"                                \
  "   vstrb.32 q0, [%[destination]], #4\n"

/* stage->groups groups of four units over one input vector of at most B blocks of 16 bytes,
 * held in registers (x0..x<B-1>; bytes past the vector's end zero, so that the weights read
 * past a row's end, the next row's, add nothing): the dot products (DOT), then the output stage
 * (STAGE: OPBRIDGE_UNITS_STAGE_CLAMPED, 28 instructions per four units with the loop, or
 * _FULL_RANGE); the Q registers the stage uses besides q0-q1 follow. The sums enter the vector
 * one lane at a time: the two-lane VMOV is avoided, as assemblers and emulators have disagreed
 * on which register goes to which lane. The last row's last block must not pass the end of the
 * filter: opbridge_plan_units gives such a group a copy of its rows. */
#define OPBRIDGE_UNITS_IN_REGISTERS_BODY(B, DOT, STAGE, ...)                                      \
  int32_t a0, a1, a2, a3, depth;                                                                  \
  const int32_t *bias, *multipliers, *shifts;                                                     \
  __asm__ volatile("   ldr      %[bias], [%[stage], #0]\n"                                        \
                   "   ldr      %[multipliers], [%[stage], #4]\n"                                 \
                   "   ldr      %[shifts], [%[stage], #8]\n"                                      \
                   "   ldr      %[depth], [%[stage], #32]\n"                                      \
                   "   ldr      lr, [%[stage], #12]\n"                                            \
                   "   dls      lr, lr\n"                                                         \
                   "1:\n" DOT(B, "a0") DOT(B, "a1") DOT(B, "a2") DOT(B, "a3")                   \
                   OPBRIDGE_UNITS_STAGE_SCALE("stage") STAGE("stage")                             \
                   "   le       lr, 1b\n"                                                         \
                   : [w] "+r"(w), [destination] "+r"(destination), [a0] "=&Te"(a0), [a1] "=&Te"(a1), \
                     [a2] "=&Te"(a2), [a3] "=&Te"(a3), [bias] "=&r"(bias),                        \
                     [multipliers] "=&r"(multipliers), [shifts] "=&r"(shifts), [depth] "=&r"(depth) \
                   : OPBRIDGE_UNITS_X##B, [stage] "r"(stage)                                      \
                   : "lr", "q0", "q1", __VA_ARGS__, "memory")

/* One unit's dot product when its row is exactly B blocks (depth 16 B): the first load advances
 * %[w] to the next row, the others read behind it (no add per unit). */
#define OPBRIDGE_UNIT_DOT_EXACT_1(a) "   vldrb.8 q0, [%[w]], #16\n   vmladav.s8 %[" a "], %q[x0], q0\n"
#define OPBRIDGE_UNIT_DOT_EXACT_2(a)                                         \
  "   vldrb.8 q0, [%[w]], #32\n   vmladav.s8 %[" a "], %q[x0], q0\n"      \
  "   vldrb.8 q1, [%[w], #-16]\n   vmladava.s8 %[" a "], %q[x1], q1\n"
#define OPBRIDGE_UNIT_DOT_EXACT_3(a)                                         \
  "   vldrb.8 q0, [%[w]], #48\n   vmladav.s8 %[" a "], %q[x0], q0\n"      \
  "   vldrb.8 q1, [%[w], #-32]\n   vmladava.s8 %[" a "], %q[x1], q1\n"    \
  "   vldrb.8 q0, [%[w], #-16]\n   vmladava.s8 %[" a "], %q[x2], q0\n"
#define OPBRIDGE_UNIT_DOT_EXACT_4(a)                                         \
  "   vldrb.8 q0, [%[w]], #64\n   vmladav.s8 %[" a "], %q[x0], q0\n"      \
  "   vldrb.8 q1, [%[w], #-48]\n   vmladava.s8 %[" a "], %q[x1], q1\n"    \
  "   vldrb.8 q0, [%[w], #-32]\n   vmladava.s8 %[" a "], %q[x2], q0\n"    \
  "   vldrb.8 q1, [%[w], #-16]\n   vmladava.s8 %[" a "], %q[x3], q1\n"
#define OPBRIDGE_UNIT_DOT_EXACT(B, a) OPBRIDGE_UNIT_DOT_EXACT_##B(a)

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
    OPBRIDGE_UNITS_IN_REGISTERS_BODY(B, OPBRIDGE_UNIT_DOT, OPBRIDGE_UNITS_STAGE_CLAMPED, "q2", "q3");      \
  }

/* The full-range output stage (OPBRIDGE_UNITS_STAGE_FULL_RANGE) over rows of any depth (DOT: one
 * add a row) or of exactly B blocks (DOT_EXACT: none). */
#define OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(B, NAME, DOT)                                         \
  static void __attribute__((noinline)) opbridge_units_in_registers##B##_##NAME(                   \
      const int8_t *x, const int8_t *w, int8_t *destination, const opbridge_units_stage *stage) { \
    OPBRIDGE_UNITS_LOAD_PART(B);                                                                     \
    OPBRIDGE_UNITS_IN_REGISTERS_BODY(B, DOT, OPBRIDGE_UNITS_STAGE_FULL_RANGE, "q3");                   \
  }

/* Vectors of 1, 2 and 3-4 blocks (the blocks past the vector zero): each variant costs about 300
 * bytes of flash in every module that links it. */
OPBRIDGE_UNITS_IN_REGISTERS(1)
OPBRIDGE_UNITS_IN_REGISTERS(2)
OPBRIDGE_UNITS_IN_REGISTERS(4)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(1, full_range, OPBRIDGE_UNIT_DOT)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(2, full_range, OPBRIDGE_UNIT_DOT)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(3, full_range, OPBRIDGE_UNIT_DOT)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(4, full_range, OPBRIDGE_UNIT_DOT)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(1, full_range_exact, OPBRIDGE_UNIT_DOT_EXACT)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(2, full_range_exact, OPBRIDGE_UNIT_DOT_EXACT)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(3, full_range_exact, OPBRIDGE_UNIT_DOT_EXACT)
OPBRIDGE_UNITS_IN_REGISTERS_FULL_RANGE(4, full_range_exact, OPBRIDGE_UNIT_DOT_EXACT)

typedef void (*opbridge_units_in_registers_fn)(const int8_t *, const int8_t *, int8_t *,
                                               const opbridge_units_stage *);

/* What opbridge_units_of_positions reads: the stage of opbridge_units_in_registers1 (its depth
 * unused: rows are 16 bytes) and the run of positions. */
typedef struct {
  opbridge_units_stage stage; /* offsets 0-32 */
  int32_t positions;          /* 36 */
  int32_t input_step;         /* 40: bytes from one position's input vector to the next's */
  const int8_t *rows;         /* 44: the weight rows, 16 bytes each, zero past the input depth */
  int32_t depth;              /* 48: input bytes per position (1 to 15) */
} opbridge_positions_job;

typedef char opbridge_positions_job_layout[(sizeof(void *) == 4 && offsetof(opbridge_positions_job, positions) == 36 &&
                                            offsetof(opbridge_positions_job, depth) == 48)
                                               ? 1
                                               : -1];

/* A run of positions of a 1x1 convolution over fewer than 16 input channels (MobileNet v2's
 * expansions of 8 channels, MobileNet v1's first pointwise layer) with the full-range output
 * stage: each position's input loaded in place (predicated to its `depth` bytes, the others
 * zero), then every group of four units as in opbridge_units_in_registers1_full_range_exact over
 * rows padded to 16 bytes. One call per run instead of one (and a copied window) per position. */
static void __attribute__((noinline)) opbridge_units_of_positions(const int8_t *x, int8_t *destination,
                                                                  const opbridge_positions_job *job) {
  int32_t a0, a1, a2, a3, count;
  const int8_t *w;
  const int32_t *bias, *multipliers, *shifts;
  __asm__ volatile("   ldr      %[count], [%[job], #36]\n"
                   "   ldr      %[a0], [%[job], #48]\n"
                   "   vctp.8   %[a0]\n" /* nothing in the loop sets VPR again */
                   "5: vpst\n"
                   "   vldrbt.8 q4, [%[x]]\n"
                   "   ldr      %[w], [%[job], #44]\n"
                   "   ldr      %[bias], [%[job], #0]\n"
                   "   ldr      %[multipliers], [%[job], #4]\n"
                   "   ldr      %[shifts], [%[job], #8]\n"
                   "   ldr      lr, [%[job], #12]\n"
                   "   dls      lr, lr\n"
                   "1:\n"
                   "   vldrb.8 q0, [%[w]], #16\n   vmladav.s8 %[a0], q4, q0\n"
                   "   vldrb.8 q1, [%[w]], #16\n   vmladav.s8 %[a1], q4, q1\n"
                   "   vldrb.8 q0, [%[w]], #16\n   vmladav.s8 %[a2], q4, q0\n"
                   "   vldrb.8 q1, [%[w]], #16\n   vmladav.s8 %[a3], q4, q1\n"
                   OPBRIDGE_UNITS_STAGE_SCALE("job") OPBRIDGE_UNITS_STAGE_FULL_RANGE("job")
                   "   le       lr, 1b\n"
                   "   ldr      %[a0], [%[job], #40]\n"
                   "   add      %[x], %[x], %[a0]\n"
                   "   subs     %[count], %[count], #1\n"
                   "   bne      5b\n"
                   : [x] "+r"(x), [destination] "+r"(destination), [a0] "=&Te"(a0), [a1] "=&Te"(a1),
                     [a2] "=&Te"(a2), [a3] "=&Te"(a3), [count] "=&r"(count), [w] "=&r"(w), [bias] "=&r"(bias),
                     [multipliers] "=&r"(multipliers), [shifts] "=&r"(shifts)
                   : [job] "r"(job)
                   : "lr", "q0", "q1", "q3", "q4", "memory", "cc");
}

/* The most bytes of padded weight rows (16 per output channel) opbridge_conv_2d_s8_folded_patch
 * copies onto the stack for opbridge_units_of_positions: 64 output channels. */
#define OPBRIDGE_PADDED_ROWS_BYTES 1024

/* What opbridge_units_of_windows<B>_<stage> reads: the stage of opbridge_units_in_registers (its
 * depth unused), a run of windows 16 B bytes apart, and weight rows of 16 B bytes. */
typedef struct {
  opbridge_units_stage stage; /* offsets 0-32 */
  int32_t positions;          /* 36: windows in the run */
  const int8_t *rows;         /* 40: the weight rows, zero past the window */
} opbridge_windows_job;

typedef char opbridge_windows_job_layout[(sizeof(void *) == 4 && offsetof(opbridge_windows_job, positions) == 36 &&
                                          offsetof(opbridge_windows_job, rows) == 40)
                                             ? 1
                                             : -1];

/* One unit's dot product with the window in q4 (and q5): a load and a VMLADAV(A) a block. */
#define OPBRIDGE_WINDOW_DOT_1(a) "   vldrb.8 q0, [%[w]], #16\n   vmladav.s8 %[" a "], q4, q0\n"
#define OPBRIDGE_WINDOW_DOT_2(a) OPBRIDGE_WINDOW_DOT_1(a) "   vldrb.8 q1, [%[w]], #16\n   vmladava.s8 %[" a "], q5, q1\n"
#define OPBRIDGE_WINDOW_LOAD_1 "   vldrb.8  q4, [%[x]], #16\n"
#define OPBRIDGE_WINDOW_LOAD_2 OPBRIDGE_WINDOW_LOAD_1 "   vldrb.8  q5, [%[x]], #16\n"

/* A run of copied windows of B blocks each (zero past the window, as the weight rows are), every
 * group of four units of each in turn: the window loaded once (q4, q5), then per group four
 * units' dot products and the output stage (STAGE, with the Q registers it uses besides q0-q1).
 * One call per run of windows instead of two per window. */
#define OPBRIDGE_UNITS_OF_WINDOWS(B, NAME, STAGE, ...)                                                        \
  static void __attribute__((noinline)) opbridge_units_of_windows##B##_##NAME(                              \
      const int8_t *x, int8_t *destination, const opbridge_windows_job *job) {                             \
    int32_t a0, a1, a2, a3, count;                                                                          \
    const int8_t *w;                                                                                        \
    const int32_t *bias, *multipliers, *shifts;                                                             \
    __asm__ volatile("   ldr      %[count], [%[job], #36]\n"                                               \
                     "5:\n" OPBRIDGE_WINDOW_LOAD_##B "   ldr      %[w], [%[job], #40]\n"                    \
                     "   ldr      %[bias], [%[job], #0]\n"                                                 \
                     "   ldr      %[multipliers], [%[job], #4]\n"                                          \
                     "   ldr      %[shifts], [%[job], #8]\n"                                               \
                     "   ldr      lr, [%[job], #12]\n"                                                     \
                     "   dls      lr, lr\n"                                                                \
                     "1:\n" OPBRIDGE_WINDOW_DOT_##B("a0") OPBRIDGE_WINDOW_DOT_##B("a1")                      \
                         OPBRIDGE_WINDOW_DOT_##B("a2") OPBRIDGE_WINDOW_DOT_##B("a3")                         \
                             OPBRIDGE_UNITS_STAGE_SCALE("job") STAGE("job") "   le       lr, 1b\n"         \
                                                                            "   subs     %[count], %[count], #1\n" \
                                                                            "   bne      5b\n"             \
                     : [x] "+r"(x), [destination] "+r"(destination), [a0] "=&Te"(a0), [a1] "=&Te"(a1),      \
                       [a2] "=&Te"(a2), [a3] "=&Te"(a3), [count] "=&r"(count), [w] "=&r"(w), [bias] "=&r"(bias), \
                       [multipliers] "=&r"(multipliers), [shifts] "=&r"(shifts)                             \
                     : [job] "r"(job)                                                                       \
                     : "lr", "q0", "q1", "q4", "q5", __VA_ARGS__, "memory", "cc");                          \
  }

OPBRIDGE_UNITS_OF_WINDOWS(1, full_range, OPBRIDGE_UNITS_STAGE_FULL_RANGE, "q3")
OPBRIDGE_UNITS_OF_WINDOWS(2, full_range, OPBRIDGE_UNITS_STAGE_FULL_RANGE, "q3")
OPBRIDGE_UNITS_OF_WINDOWS(1, clamped, OPBRIDGE_UNITS_STAGE_CLAMPED, "q2", "q3")
OPBRIDGE_UNITS_OF_WINDOWS(2, clamped, OPBRIDGE_UNITS_STAGE_CLAMPED, "q2", "q3")

typedef void (*opbridge_units_of_windows_fn)(const int8_t *, int8_t *, const opbridge_windows_job *);

/* `count` windows inside the input, `tap_step` bytes apart, each `rows` rows of `row_bytes` (< 16)
 * bytes `line_step` apart, into slots `slot` bytes apart: a predicated load and store a row. */
static void __attribute__((noinline)) opbridge_copy_inside_windows(const int8_t *tap, int32_t tap_step,
                                                                   int32_t line_step, int8_t *window, int32_t slot,
                                                                   int32_t rows, int32_t row_bytes,
                                                                   mve_pred16_t lanes, int32_t count) {
  const int8_t *source;
  int8_t *destination;
  __asm__ volatile("   vmsr     p0, %[lanes]\n"
                   "1: mov      %[source], %[tap]\n"
                   "   mov      %[destination], %[window]\n"
                   "   dls      lr, %[rows]\n"
                   "2: vpstt\n"
                   "   vldrbt.8 q0, [%[source]]\n"
                   "   vstrbt.8 q0, [%[destination]]\n"
                   "   add      %[source], %[source], %[line_step]\n"
                   "   add      %[destination], %[destination], %[row_bytes]\n"
                   "   le       lr, 2b\n"
                   "   add      %[tap], %[tap], %[tap_step]\n"
                   "   add      %[window], %[window], %[slot]\n"
                   "   subs     %[count], %[count], #1\n"
                   "   bne      1b\n"
                   : [tap] "+r"(tap), [window] "+r"(window), [count] "+r"(count), [source] "=&r"(source),
                     [destination] "=&r"(destination)
                   : [tap_step] "r"(tap_step), [line_step] "r"(line_step), [slot] "r"(slot), [rows] "r"(rows),
                     [row_bytes] "r"(row_bytes), [lanes] "r"((uint32_t)lanes)
                   : "lr", "q0", "memory", "cc");
}

/* The stage of `units` units in groups of four over rows `depth` bytes apart, with a shared
 * multiplier and shift laid out four times each in `shared`: -1 if a unit shifts left (the paths
 * that hold units in registers take none), else whether the short stage applies (every unit
 * shifts right and the activation range is all of int8). */
static inline __attribute__((always_inline)) int32_t opbridge_units_stage_of(const opbridge_folded_requantization *rq,
                                                                  int32_t units, int32_t depth, int32_t shared[8],
                                                                  opbridge_units_stage *stage) {
  int32_t all_right = 1;
  for (int32_t u = 0; u < (rq->per_channel ? units : 1); ++u) {
    if (rq->shifts[u] > 0) {
      return -1;
    }
    all_right &= rq->shifts[u] < 0;
  }
  for (int32_t k = 0; k < 4; ++k) {
    shared[k] = rq->multipliers[0];
    shared[4 + k] = rq->shifts[0];
  }
  const opbridge_units_stage value = {rq->folded_bias,
                                      rq->per_channel ? rq->multipliers : shared,
                                      rq->per_channel ? rq->shifts : shared + 4,
                                      units / 4,
                                      rq->per_channel ? 16 : 0,
                                      rq->output_offset,
                                      rq->activation_min,
                                      rq->activation_max,
                                      depth};
  *stage = value;
  return all_right && rq->activation_min == -128 && rq->activation_max == 127;
}

/* The windows opbridge_conv_2d_s8_folded_patch_rows copies at a time onto the stack, 16 B bytes
 * each: 512 bytes. */
#define OPBRIDGE_WINDOW_RUN_BYTES 512

int32_t opbridge_conv_2d_s8_folded_patch_rows(const opbridge_conv_s8_folded_params *caller_params,
                                              const int8_t *input, const int8_t *filter, int8_t *scratch,
                                              int8_t *output) {
  if (!opbridge_conv_patch_rows_call_valid(caller_params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_conv_s8_folded_params local_params = *caller_params;
  const opbridge_conv_s8_folded_params *params = &local_params;
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t window_bytes = fl->height * fl->width * fl->channels;
  const int32_t blocks = window_bytes > 16 ? 2 : 1;
  const int32_t slot = 16 * blocks;
  int32_t shared[8];
  opbridge_windows_job job = {{0}, 0, NULL};
  /* No unit shifts left (the precondition): 1 for the short stage, else 0. */
  const int32_t full_range = opbridge_units_stage_of(rq, out->channels, window_bytes, shared, &job.stage);
  static const opbridge_units_of_windows_fn by_stage[2][2] = {
      {opbridge_units_of_windows1_clamped, opbridge_units_of_windows2_clamped},
      {opbridge_units_of_windows1_full_range, opbridge_units_of_windows2_full_range}};
  const opbridge_units_of_windows_fn run = by_stage[full_range][blocks - 1];
  /* The weight rows padded to the slot with zeros, and windows whose bytes past the window stay
   * zero: what the padding multiplies adds nothing. */
  int8_t rows[OPBRIDGE_PATCH_ROWS_ROWS_BYTES] __attribute__((aligned(16)));
  int8_t windows[OPBRIDGE_WINDOW_RUN_BYTES] __attribute__((aligned(16)));
  for (int32_t u = 0; u < out->channels; ++u) {
    for (int32_t k = 0; k < blocks; ++k) {
      const mve_pred16_t kept = vctp8q((uint32_t)(window_bytes - 16 * k));
      vst1q_s8(rows + slot * u + 16 * k, vldrbq_z_s8(filter + window_bytes * u + 16 * k, kept));
    }
  }
  for (int32_t i = 0; i < OPBRIDGE_WINDOW_RUN_BYTES; i += 16) {
    vst1q_s8(windows + i, vdupq_n_s8(0));
  }
  job.rows = rows;
  const int32_t run_positions = OPBRIDGE_WINDOW_RUN_BYTES / slot;
  const int32_t row_bytes = fl->width * in->channels; /* a window row: contiguous, under 16 bytes */
  const mve_pred16_t row_lanes = vctp8q((uint32_t)row_bytes);
  const int32_t line_bytes = in->width * in->channels;
  const int32_t y_span = (fl->height - 1) * params->dilation_height;
  /* Output columns [first_inside, last_inside) have windows inside the input along x. */
  const int32_t first_inside = (params->padding_width + params->stride_width - 1) / params->stride_width;
  const int32_t last_inside = in->width - fl->width + params->padding_width < 0
                                  ? 0
                                  : (in->width - fl->width + params->padding_width) / params->stride_width + 1;
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * line_bytes;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      const int32_t rows_inside = y_origin >= 0 && y_origin + y_span < in->height;
      for (int32_t first = 0; first < out->width; first += run_positions) {
        const int32_t count = out->width - first < run_positions ? out->width - first : run_positions;
        /* The run's windows inside the input, [inside_from, inside_until), copied a row at a
         * time in one call; the others (overhanging the input) with the zero point. */
        int32_t inside_from = count;
        int32_t inside_until = count;
        if (rows_inside) {
          inside_from = first_inside > first ? (first_inside - first < count ? first_inside - first : count) : 0;
          inside_until = last_inside - first < count ? last_inside - first : count;
          inside_until = inside_until < inside_from ? inside_from : inside_until;
        }
        for (int32_t i = 0; i < count; ++i) {
          if (i == inside_from && inside_until > inside_from) {
            const int32_t x_origin = (first + i) * params->stride_width - params->padding_width;
            opbridge_copy_inside_windows(image + y_origin * line_bytes + x_origin * in->channels,
                                         params->stride_width * in->channels, params->dilation_height * line_bytes,
                                         windows + slot * i, slot, fl->height, row_bytes, row_lanes,
                                         inside_until - inside_from);
            i = inside_until - 1;
            continue;
          }
          opbridge_copy_window(params, image, y_origin, (first + i) * params->stride_width - params->padding_width,
                               windows + slot * i);
        }
        opbridge_windows_job run_job = job;
        run_job.positions = count;
        run(windows, output, &run_job);
        output += count * out->channels;
      }
    }
  }
  (void)scratch; /* the windows go to the stack, a run of them at a time */
  return OPBRIDGE_STATUS_OK;
}


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
  static const opbridge_units_in_registers_fn full_range_by_blocks[4] = {
      opbridge_units_in_registers1_full_range, opbridge_units_in_registers2_full_range,
      opbridge_units_in_registers3_full_range, opbridge_units_in_registers4_full_range};
  static const opbridge_units_in_registers_fn full_range_exact_by_blocks[4] = {
      opbridge_units_in_registers1_full_range_exact, opbridge_units_in_registers2_full_range_exact,
      opbridge_units_in_registers3_full_range_exact, opbridge_units_in_registers4_full_range_exact};
  plan->run = NULL;
  plan->units = 0;
  const int32_t blocks = (depth + 15) / 16;
  const int32_t groups = units / 4;
  if (depth > 64 || groups <= 0) {
    return;
  }
  const int32_t full_range = opbridge_units_stage_of(rq, units, depth, plan->shared, &plan->stage);
  if (full_range < 0) {
    return;
  }
  /* The short output stage has a variant per number of blocks; the other runs 3 blocks as 4. */
  /* The last row's reads end at 16 * blocks bytes past its start, past the filter unless depth
   * is whole blocks: then the last group reads a copy of its rows followed by zeros. */
  const int32_t read = 16 * (blocks == 3 && !full_range ? 4 : blocks); /* bytes each row's loads span */
  const int32_t copied = depth != read;
  plan->stage.groups = groups - copied;
  plan->last_stage = plan->stage;
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
  if (full_range) {
    /* Rows of whole blocks (depth 16, 32, 48 or 64) never read past the filter (nothing was
     * copied) and need no add per row. */
    plan->run = copied ? full_range_by_blocks[blocks - 1] : full_range_exact_by_blocks[blocks - 1];
  }
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
        opbridge_dot4_outlined(image + (iy * in->width + ix) * channels, w0, w1, w2, w3, group_bytes, acc);
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
        opbridge_dot4_outlined(image + (iy * in->width + ix + low) * channels, w0 + low * channels, w1 + low * channels,
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
  const int8_t *interleaved; /* the rows interleaved for pairs of positions (opbridge_interleave_rows4), or NULL */
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

/* Two neighbouring positions of a run at a time, for four output channels: each weight block
 * loaded once serves both windows (14 instructions per 128 products, against 18 for one window
 * at a time). The four weight rows are interleaved block by block (by the emitter for
 * opbridge_conv_2d_s8_folded_pairs, on the stack by opbridge_interleave_rows4 for _blocks), so
 * one pointer walks them; the eight sums take the even registers (VMLADAVA's accumulators)
 * r0-r12 and lr, the pointers the odd ones. */
typedef struct {
  int32_t turns;            /* 0: loop turns per window row (blocks, or blocks / 3 in the 3-block loop) */
  const int8_t *weights_end; /* 4: the interleaved rows' end */
  int32_t row_skip;         /* 8: bytes from the end of a window row to the next row's start */
  int32_t back;             /* 12: from a pair's windows' ends to the next pair's starts */
  int32_t destination_step; /* 16: bytes between outputs of neighbouring positions (channels) */
  int32_t offset;           /* 20: output offset */
  const int8_t *end;        /* 24: the destination after the last pair */
  const int8_t *weights;    /* 28: the interleaved rows: block b of rows 0-3, then block b + 1 */
  const int8_t *origin;     /* 32: the first window's first tap */
  int32_t origin_step;      /* 36: bytes between neighbouring windows */
  int8_t *destination;      /* 40: the first position's output */
  int32_t unused;           /* 44 */
  int32x4_t bias;           /* 48 */
  int32x4_t multiplier;     /* 64 */
  int32x4_t right;          /* 80: min(shift, 0) */
  int32x4_t round;          /* 96: -1 where right < 0 */
  int32x4_t minimum;        /* 112 */
  int32x4_t maximum;        /* 128 */
  int32x4_t left;           /* 144: max(shift, 0), read by the variant that shifts left */
} opbridge_conv_pairs_job;

typedef char opbridge_conv_pairs_job_layout[(sizeof(void *) == 4 && offsetof(opbridge_conv_pairs_job, destination) == 40 &&
                                             offsetof(opbridge_conv_pairs_job, bias) == 48 &&
                                             offsetof(opbridge_conv_pairs_job, maximum) == 128 &&
                                             offsetof(opbridge_conv_pairs_job, left) == 144)
                                                ? 1
                                                : -1];

/* One block of both windows (r1, r11) against the four interleaved weight rows (r3). */
#define OPBRIDGE_PAIRS_BLOCK              \
  "   vldrb.8 q0, [r1], #16\n"            \
  "   vldrb.8 q1, [r11], #16\n"           \
  "   vldrb.8 q2, [r3], #16\n"            \
  "   vmlava.s8 r0, q0, q2\n"             \
  "   vmlava.s8 r8, q1, q2\n"             \
  "   vldrb.8 q2, [r3], #16\n"            \
  "   vmlava.s8 r2, q0, q2\n"             \
  "   vmlava.s8 r10, q1, q2\n"            \
  "   vldrb.8 q2, [r3], #16\n"            \
  "   vmlava.s8 r4, q0, q2\n"             \
  "   vmlava.s8 r12, q1, q2\n"            \
  "   vldrb.8 q2, [r3], #16\n"            \
  "   vmlava.s8 r6, q0, q2\n"             \
  "   vmlava.s8 lr, q1, q2\n"
#define OPBRIDGE_PAIRS_TURN_1 OPBRIDGE_PAIRS_BLOCK
#define OPBRIDGE_PAIRS_TURN_3 OPBRIDGE_PAIRS_BLOCK OPBRIDGE_PAIRS_BLOCK OPBRIDGE_PAIRS_BLOCK

/* The output stage of both vectors of four sums (q0, q1), which start at the bias, after the left
 * shift (below): as opbridge_lanes_requantize (q5 multiplier, q7 the rounding fix, q6 the right
 * shift, q2 a temporary; then r9 the offset, q3 and q4 the clamp). */
#define OPBRIDGE_PAIRS_RESCALE(q)       \
  "   vqrdmulh.s32 " q ", " q ", q5\n"  \
  "   vshr.s32 q2, " q ", #31\n"        \
  "   vand    q2, q2, q7\n"             \
  "   vqadd.s32 " q ", " q ", q2\n"     \
  "   vrshl.s32 " q ", " q ", q6\n"

/* Naked: it needs every general register (eight sums and six pointers), which GCC's operand
 * constraints cannot give at -O0 (r7 is the frame pointer there); it saves what AAPCS asks. The
 * destination is in r7: VSTRB.32 takes a low register. Per pair: 14 instructions a block, 2 a
 * loop turn and 7 a window row (2 a row of the 3x3 written out), 38 for the stage and the loop. */
#define OPBRIDGE_PAIRS_NO_LEFT_SHIFT ""
#define OPBRIDGE_PAIRS_LEFT_SHIFT     \
  "   vldrw.32 q2, [r5, #144]\n"     \
  "   vshl.s32 q0, q0, q2\n"         \
  "   vshl.s32 q1, q1, q2\n"
/* The window of both positions: rows of `turns` loop turns of U blocks, ended by the weights' end. */
#define OPBRIDGE_PAIRS_WINDOW_LOOP(U)   \
  "2: ldr     r9, [r5, #0]\n"           \
  "3:\n" OPBRIDGE_PAIRS_TURN_##U        \
  "   subs    r9, r9, #1\n"             \
  "   bne     3b\n"                     \
  "   ldr     r9, [r5, #8]\n"           \
  "   add     r1, r1, r9\n"             \
  "   add     r11, r11, r9\n"           \
  "   ldr     r9, [r5, #4]\n"           \
  "   cmp     r3, r9\n"                 \
  "   bne     2b\n"
/* Three rows of three blocks (3x3 over 16 channels, the most common shape), written out. */
#define OPBRIDGE_PAIRS_ROW_OF_3 OPBRIDGE_PAIRS_TURN_3 "   add     r1, r1, r9\n   add     r11, r11, r9\n"
#define OPBRIDGE_PAIRS_WINDOW_3X3 \
  "   ldr     r9, [r5, #8]\n" OPBRIDGE_PAIRS_ROW_OF_3 OPBRIDGE_PAIRS_ROW_OF_3 OPBRIDGE_PAIRS_ROW_OF_3

/* Sums start at the bias (LDRD: two units a load); q3 and q4 hold the clamp. */
#define OPBRIDGE_CONV_PAIRS(NAME, WINDOW, LEFT)                                                       \
  static void __attribute__((naked, noinline)) NAME(const opbridge_conv_pairs_job *job __attribute__((unused))) { \
    __asm__ volatile("   push    {r4-r11, lr}\n"                                                      \
                     "   vpush   {d8-d15}\n"                                                          \
                     "   mov     r5, r0\n"                                                            \
                     "   vldrw.32 q3, [r5, #112]\n"                                                   \
                     "   vldrw.32 q4, [r5, #128]\n"                                                   \
                     "   vldrw.32 q5, [r5, #64]\n"                                                    \
                     "   vldrw.32 q6, [r5, #80]\n"                                                    \
                     "   vldrw.32 q7, [r5, #96]\n"                                                    \
                     "   ldr     r1, [r5, #32]\n"                                                     \
                     "   ldr     r9, [r5, #36]\n"                                                     \
                     "   add     r11, r1, r9\n"                                                       \
                     "   ldr     r7, [r5, #40]\n"                                                     \
                     "1: ldr     r3, [r5, #28]\n"                                                     \
                     "   ldrd    r0, r2, [r5, #48]\n"                                                 \
                     "   ldrd    r4, r6, [r5, #56]\n"                                                 \
                     "   ldrd    r8, r10, [r5, #48]\n"                                                \
                     "   ldrd    r12, lr, [r5, #56]\n" WINDOW                                         \
                     "   vmov.32 q0[0], r0\n"                                                         \
                     "   vmov.32 q0[1], r2\n"                                                         \
                     "   vmov.32 q0[2], r4\n"                                                         \
                     "   vmov.32 q0[3], r6\n"                                                         \
                     "   vmov.32 q1[0], r8\n"                                                         \
                     "   vmov.32 q1[1], r10\n"                                                        \
                     "   vmov.32 q1[2], r12\n"                                                        \
                     "   vmov.32 q1[3], lr\n" LEFT OPBRIDGE_PAIRS_RESCALE("q0") OPBRIDGE_PAIRS_RESCALE("q1") \
                     "   ldr     r9, [r5, #20]\n"                                                     \
                     "   vadd.i32 q0, q0, r9\n"                                                       \
                     "   vadd.i32 q1, q1, r9\n"                                                       \
                     "   vmax.s32 q0, q0, q3\n"                                                       \
                     "   vmax.s32 q1, q1, q3\n"                                                       \
                     "   vmin.s32 q0, q0, q4\n"                                                       \
                     "   vmin.s32 q1, q1, q4\n"                                                       \
                     "   ldr     r9, [r5, #16]\n"                                                     \
                     "   vstrb.32 q0, [r7]\n"                                                         \
                     "   add     r7, r7, r9\n"                                                        \
                     "   vstrb.32 q1, [r7]\n"                                                         \
                     "   add     r7, r7, r9\n"                                                        \
                     "   ldr     r9, [r5, #12]\n"                                                     \
                     "   add     r1, r1, r9\n"                                                        \
                     "   add     r11, r11, r9\n"                                                      \
                     "   ldr     r9, [r5, #24]\n"                                                     \
                     "   cmp     r7, r9\n"                                                            \
                     "   bne     1b\n"                                                                \
                     "   vpop    {d8-d15}\n"                                                          \
                     "   pop     {r4-r11, pc}\n");                                                    \
  }

/* Window rows of a multiple of 3 blocks (3x3 over 16k channels) three blocks a loop turn, three
 * rows of three written out; each with a left shift in some unit or none. */
OPBRIDGE_CONV_PAIRS(opbridge_conv_pairs_in_assembly1, OPBRIDGE_PAIRS_WINDOW_LOOP(1), OPBRIDGE_PAIRS_NO_LEFT_SHIFT)
OPBRIDGE_CONV_PAIRS(opbridge_conv_pairs_in_assembly3, OPBRIDGE_PAIRS_WINDOW_LOOP(3), OPBRIDGE_PAIRS_NO_LEFT_SHIFT)
OPBRIDGE_CONV_PAIRS(opbridge_conv_pairs_in_assembly3x3, OPBRIDGE_PAIRS_WINDOW_3X3, OPBRIDGE_PAIRS_NO_LEFT_SHIFT)
OPBRIDGE_CONV_PAIRS(opbridge_conv_pairs_shifting_left1, OPBRIDGE_PAIRS_WINDOW_LOOP(1), OPBRIDGE_PAIRS_LEFT_SHIFT)
OPBRIDGE_CONV_PAIRS(opbridge_conv_pairs_shifting_left3, OPBRIDGE_PAIRS_WINDOW_LOOP(3), OPBRIDGE_PAIRS_LEFT_SHIFT)
OPBRIDGE_CONV_PAIRS(opbridge_conv_pairs_shifting_left3x3, OPBRIDGE_PAIRS_WINDOW_3X3, OPBRIDGE_PAIRS_LEFT_SHIFT)

typedef void (*opbridge_conv_pairs_fn)(const opbridge_conv_pairs_job *);

/* The pairs assembly for window rows of `blocks` blocks, `window_rows` of them, shifting left or not. */
static opbridge_conv_pairs_fn opbridge_conv_pairs_of(int32_t blocks, int32_t window_rows, int32_t left) {
  if (blocks == 3 && window_rows == 3) {
    return left ? opbridge_conv_pairs_shifting_left3x3 : opbridge_conv_pairs_in_assembly3x3;
  }
  if (blocks % 3 == 0) {
    return left ? opbridge_conv_pairs_shifting_left3 : opbridge_conv_pairs_in_assembly3;
  }
  return left ? opbridge_conv_pairs_shifting_left1 : opbridge_conv_pairs_in_assembly1;
}

/* The four weight rows of a group interleaved block by block (block b of rows 0-3, then block
 * b + 1): what opbridge_conv_pairs_in_assembly reads with one pointer. */
static void opbridge_interleave_rows4(const opbridge_rows4 *rows, int32_t window_bytes, int8_t *interleaved) {
  for (int32_t b = 0; b < window_bytes; b += 16) {
    for (int32_t k = 0; k < 4; ++k) {
      vstrbq_s8(interleaved, vldrbq_s8(rows->row[k] + b));
      interleaved += 16;
    }
  }
}

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
    /* Four channels, no left shift: the run in assembly, two positions at a time where the rows
     * are interleaved, then the last position of an odd run alone. */
    const int32_t blocks = run / 16;
    int32_t count = segment->count;
    if (segment->interleaved != NULL && count >= 2) {
      const int32_t pairs = count / 2;
      const opbridge_conv_pairs_job pairs_job = {
          blocks % 3 == 0 ? blocks / 3 : blocks,
          segment->interleaved + 4 * window_rows * run,
          row_step - run,
          2 * origin_step - window_rows * row_step,
          destination_step,
          constants.offset,
          destination + 2 * pairs * destination_step,
          segment->interleaved,
          origin,
          origin_step,
          destination,
          0,
          constants.bias,
          constants.multiplier,
          constants.right,
          vshrq_n_s32(constants.right, 31),
          vdupq_n_s32(constants.minimum),
          vdupq_n_s32(constants.maximum),
          constants.left,
      };
      opbridge_conv_pairs_of(blocks, window_rows, 0)(&pairs_job);
      if (count % 2 == 0) {
        return;
      }
      origin += 2 * pairs * origin_step;
      destination += 2 * pairs * destination_step;
      count = 1;
    }
    const opbridge_conv_job job = {
        blocks,
        w0 + window_rows * run,
        row_step - run,
        origin_step - window_rows * row_step,
        window_rows * run,
        destination_step,
        constants.offset,
        destination + count * destination_step,
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
  if (fl->height == 1 && fl->width == 1 && params->padding_height == 0 && params->padding_width == 0 &&
      plan.run == opbridge_units_in_registers1_full_range && out->channels % 4 == 0 &&
      out->channels * 16 <= OPBRIDGE_PADDED_ROWS_BYTES) {
    /* 1x1 over fewer than 16 channels: every position's input is in place (no window to copy),
     * and a row of positions runs in one call over weight rows padded to 16 bytes. */
    int8_t rows[OPBRIDGE_PADDED_ROWS_BYTES];
    const mve_pred16_t kept = vctp8q((uint32_t)window_bytes);
    for (int32_t u = 0; u < out->channels; ++u) {
      vst1q_s8(rows + 16 * u, vldrbq_z_s8(filter + u * window_bytes, kept));
    }
    opbridge_positions_job job = {plan.stage, out->width, params->stride_width * in->channels, rows, window_bytes};
    job.stage.groups = out->channels / 4;
    for (int32_t b = 0; b < out->batches; ++b) {
      for (int32_t oy = 0; oy < out->height; ++oy) {
        const int8_t *x = input + b * image_bytes + oy * params->stride_height * in->width * in->channels;
        opbridge_units_of_positions(x, output, &job);
        output += out->width * out->channels;
      }
    }
    return OPBRIDGE_STATUS_OK;
  }
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
  /* Runs of two windows or more, rows of whole blocks: pairs of positions over interleaved rows. */
  const int32_t pairs_fit = params->dilation_width == 1 && run % 16 == 0 &&
                            window_bytes <= OPBRIDGE_CONV_BLOCKS_MAX_WINDOW && end_inside - first_inside >= 2;
  int8_t interleaved[4 * OPBRIDGE_CONV_BLOCKS_MAX_WINDOW];
  for (int32_t oc = 0; oc < channels; oc += 4) {
    const int32_t lanes = channels - oc < 4 ? channels - oc : 4;
    const mve_pred16_t mask = vctp32q((uint32_t)lanes);
    const opbridge_lanes_output stage = opbridge_load_output(rq, oc, mask);
    const opbridge_rows4 rows = opbridge_weight_rows(filter, oc, lanes, window_bytes);
    const int32_t pairs = pairs_fit && lanes == 4 && vmaxvq_s32(0, stage.left) == 0;
    if (pairs) {
      opbridge_interleave_rows4(&rows, window_bytes, interleaved);
    }
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
                pairs ? interleaved : NULL,
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

/* Where a run of windows lies: the first window's first tap, bytes from one window to the next,
 * bytes between window rows, bytes of a window row (whole blocks). */
typedef struct {
  const int8_t *origin;
  int32_t origin_step;
  int32_t row_step;
  int32_t run;
} opbridge_pairs_windows;

/* Pairs of positions over `count` windows for every group of four output channels, the filter in
 * the pairs layout. An odd run's last window runs as a pair of itself (no step between the two,
 * one store). */
static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_pairs_run(const opbridge_conv_s8_folded_params *params,
                                                          const int8_t *filter, opbridge_pairs_windows windows,
                                                          int32_t count, int8_t *destination) {
  const int32_t channels = params->output.channels;
  const int8_t *origin = windows.origin;
  const int32_t run = windows.run;
  const int32_t row_step = windows.row_step;
  const int32_t origin_step = windows.origin_step;
  const int32_t window_rows = params->filter.height;
  const int32_t window_bytes = window_rows * run;
  const int32_t blocks = run / 16;
  const int32_t pairs = count / 2;
  for (int32_t oc = 0; oc < channels; oc += 4) {
    const opbridge_lanes_output constants = opbridge_load_output(&params->requantization, oc, 0xffff);
    const int8_t *weights = filter + oc * window_bytes; /* the group's four rows, interleaved */
    opbridge_conv_pairs_job job = {
        blocks % 3 == 0 ? blocks / 3 : blocks,
        weights + 4 * window_bytes,
        row_step - run,
        2 * origin_step - window_rows * row_step,
        channels,
        constants.offset,
        destination + oc + 2 * pairs * channels,
        weights,
        origin,
        origin_step,
        destination + oc,
        0,
        constants.bias,
        constants.multiplier,
        constants.right,
        vshrq_n_s32(constants.right, 31),
        vdupq_n_s32(constants.minimum),
        vdupq_n_s32(constants.maximum),
        constants.left,
    };
    const opbridge_conv_pairs_fn pairs_of = opbridge_conv_pairs_of(blocks, window_rows, vmaxvq_s32(0, constants.left) > 0);
    if (pairs > 0) {
      pairs_of(&job);
    }
    if (count % 2) {
      job.origin = origin + 2 * pairs * origin_step;
      job.origin_step = 0;
      job.destination = destination + oc + 2 * pairs * channels;
      job.destination_step = 0;
      job.end = job.destination;
      pairs_of(&job);
    }
  }
}

/* `bytes` bytes of `source` to `destination`, and `bytes` of `value`: tail-predicated low-overhead
 * loops (3 and 2 instructions per 16 bytes; the C loop took 16). */
static inline void opbridge_band_copy(int8_t *destination, const int8_t *source, int32_t bytes) {
  __asm__ volatile("   wlstp.8 lr, %[bytes], 2f\n"
                   "1: vldrb.8 q0, [%[source]], #16\n"
                   "   vstrb.8 q0, [%[destination]], #16\n"
                   "   letp    lr, 1b\n"
                   "2:\n"
                   : [destination] "+r"(destination), [source] "+r"(source)
                   : [bytes] "r"(bytes)
                   : "lr", "q0", "memory");
}

static inline void opbridge_band_fill(int8_t *destination, int8_t value, int32_t bytes) {
  const int8x16_t fill = vdupq_n_s8(value);
  __asm__ volatile("   wlstp.8 lr, %[bytes], 2f\n"
                   "1: vstrb.8 %q[fill], [%[destination]], #16\n"
                   "   letp    lr, 1b\n"
                   "2:\n"
                   : [destination] "+r"(destination)
                   : [bytes] "r"(bytes), [fill] "w"(fill)
                   : "lr", "memory");
}

/* The window rows of output row y_origin's columns [x_start, x_start + span) of the input, one
 * after the other, the input zero point where they lie outside it. */
static OPBRIDGE_OPTIMIZE_FOR_SIZE void opbridge_pairs_band(const opbridge_conv_s8_folded_params *params,
                                                           const int8_t *image, int32_t y_origin, int32_t x_start,
                                                           int32_t span, int8_t *band) {
  const opbridge_dims *in = &params->input;
  const int8_t zero_point = (int8_t)(-params->input_offset);
  const int32_t channels = in->channels;
  for (int32_t fy = 0; fy < params->filter.height; ++fy, band += span * channels) {
    const int32_t iy = y_origin + fy * params->dilation_height;
    if (iy < 0 || iy >= in->height) {
      opbridge_band_fill(band, zero_point, span * channels);
      continue;
    }
    int32_t before = x_start < 0 ? -x_start : 0; /* columns left of the input */
    before = before < span ? before : span;
    int32_t inside = in->width - (x_start + before); /* columns inside from there */
    inside = inside < span - before ? inside : span - before;
    inside = inside > 0 ? inside : 0;
    opbridge_band_fill(band, zero_point, before * channels);
    opbridge_band_copy(band + before * channels, image + (iy * in->width + x_start + before) * channels,
                       inside * channels);
    opbridge_band_fill(band + (before + inside) * channels, zero_point, (span - before - inside) * channels);
  }
}

/* Windows of one row that are not whole blocks (a 1x1 over 24, 40, 72, ... channels; Conv1D's 1x5
 * over 40 features): runs of windows copied onto the stack, the input zero point where they
 * overhang the input, each padded with zeros to whole blocks (the filter's rows are padded with
 * zero weights alike), then in pairs as windows of one row of whole blocks. Positions run on
 * across output rows. */
static int32_t opbridge_pairs_padded_windows(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                             const int8_t *filter, int8_t *output) {
  const opbridge_dims *in = &params->input;
  const opbridge_dims *out = &params->output;
  const int32_t channels = in->channels;
  const int32_t taps = params->filter.width;
  const int32_t padded = (taps * channels + 15) / 16 * 16;
  const int32_t band_positions = OPBRIDGE_CONV_PAIRS_BAND_BYTES / padded; /* at least 2: the precondition */
  const int8_t zero_point = (int8_t)(-params->input_offset);
  int8_t band[OPBRIDGE_CONV_PAIRS_BAND_BYTES];
  opbridge_band_fill(band, 0, band_positions * padded); /* the padding meets zero weights */
  const int32_t positions = out->batches * out->height * out->width;
  int32_t b = 0, oy = 0, ox = 0; /* the next position to copy */
  for (int32_t first = 0; first < positions; first += band_positions) {
    const int32_t count = positions - first < band_positions ? positions - first : band_positions;
    for (int32_t k = 0; k < count; ++k) {
      const int32_t iy = oy * params->stride_height; /* no rows of padding: the precondition */
      const int32_t x_origin = ox * params->stride_width - params->padding_width;
      const int8_t *row = input + (b * in->height + iy) * in->width * channels;
      int8_t *window = band + k * padded;
      if (x_origin >= 0 && x_origin + taps <= in->width) { /* inside the input (every 1x1 window) */
        opbridge_band_copy(window, row + x_origin * channels, taps * channels);
      } else {
        int32_t before = x_origin < 0 ? -x_origin : 0; /* taps left of the input */
        before = before < taps ? before : taps;
        int32_t inside = in->width - (x_origin + before); /* taps inside it from there */
        inside = inside < taps - before ? inside : taps - before;
        inside = inside > 0 ? inside : 0;
        opbridge_band_fill(window, zero_point, before * channels);
        opbridge_band_copy(window + before * channels, row + (x_origin + before) * channels, inside * channels);
        opbridge_band_fill(window + (before + inside) * channels, zero_point, (taps - before - inside) * channels);
      }
      if (++ox == out->width) {
        ox = 0;
        if (++oy == out->height) {
          oy = 0;
          ++b;
        }
      }
    }
    const opbridge_pairs_windows windows_of_band = {band, padded, padded, padded};
    opbridge_pairs_run(params, filter, windows_of_band, count, output + first * out->channels);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_conv_2d_s8_folded_pairs(const opbridge_conv_s8_folded_params *caller_params, const int8_t *input,
                                         const int8_t *filter, int8_t *output) {
  if (!opbridge_conv_pairs_call_valid(caller_params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_conv_s8_folded_params local_params = *caller_params;
  const opbridge_conv_s8_folded_params *params = &local_params;
  const opbridge_dims *in = &params->input;
  const opbridge_dims *fl = &params->filter;
  const opbridge_dims *out = &params->output;
  const int32_t channels = in->channels;
  if ((fl->width * channels) % 16 != 0) {
    return opbridge_pairs_padded_windows(params, input, filter, output);
  }
  const int32_t stride = params->stride_width;
  const int32_t run = fl->width * channels;
  const int32_t in_place_row_step = params->dilation_height * in->width * channels;
  if (fl->height == 1 && fl->width == 1 && stride == 1 && params->stride_height == 1 && params->padding_height == 0 &&
      params->padding_width == 0) {
    /* A 1x1 at stride 1: the positions follow one another across rows and batches, one run. */
    const opbridge_pairs_windows positions = {input, channels, channels, run};
    opbridge_pairs_run(params, filter, positions, out->batches * out->height * out->width, output);
    return OPBRIDGE_STATUS_OK;
  }
  /* Output columns [first_inside, end_inside) have windows inside the input along x. */
  const int32_t first_inside = (params->padding_width + stride - 1) / stride;
  const int32_t last_start = in->width - fl->width + params->padding_width;
  int32_t end_inside = last_start < 0 ? 0 : last_start / stride + 1;
  end_inside = end_inside > out->width ? out->width : end_inside;
  /* The most output columns whose window rows fit the band (at least 2: the entry's precondition). */
  const int32_t band_columns = (OPBRIDGE_CONV_PAIRS_BAND_BYTES / (fl->height * channels) - fl->width) / stride + 1;
  int8_t band[OPBRIDGE_CONV_PAIRS_BAND_BYTES];
  for (int32_t b = 0; b < out->batches; ++b) {
    const int8_t *image = input + b * in->height * in->width * channels;
    for (int32_t oy = 0; oy < out->height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      const int32_t rows_inside =
          y_origin >= 0 && y_origin + (fl->height - 1) * params->dilation_height < in->height;
      /* Read in place: the columns inside the input, unless the whole row fits the band (then one run). */
      int32_t first = out->width;
      int32_t end = out->width;
      if (rows_inside && end_inside - first_inside >= 2 && (band_columns < out->width || (first_inside == 0 && end_inside == out->width))) {
        first = first_inside;
        end = end_inside;
      }
      int8_t *row_output = output + (b * out->height + oy) * out->width * out->channels;
      for (int32_t ox = 0; ox < out->width;) {
        const int32_t x_origin = ox * stride - params->padding_width;
        if (ox == first) {
          const opbridge_pairs_windows in_place = {image + (y_origin * in->width + x_origin) * channels,
                                                   stride * channels, in_place_row_step, run};
          opbridge_pairs_run(params, filter, in_place, end - first, row_output + ox * out->channels);
          ox = end;
          continue;
        }
        int32_t stop = ox + band_columns < out->width ? ox + band_columns : out->width;
        stop = ox < first && stop > first ? first : stop;
        const int32_t span = (stop - ox - 1) * stride + fl->width;
        opbridge_pairs_band(params, image, y_origin, x_origin, span, band);
        const opbridge_pairs_windows banded = {band, stride * channels, span * channels, run};
        opbridge_pairs_run(params, filter, banded, stop - ox, row_output + ox * out->channels);
        ox = stop;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* The most bytes of the positions after the last whole group of four whose windows would read past
 * the input (opbridge_conv_2d_s8_folded_pointwise_by_channel copies them, and the windows their
 * group reads, to the stack): at most 3 + 16 / depth of them, 456 bytes for 56 channels. */
#define OPBRIDGE_POINTWISE_BY_CHANNEL_REST_BYTES 512

/* Each output channel over every position (all batches' are one run), four at a time: its weights
 * in registers (padded with zeros to whole 16-byte vectors), each output one to four 16-byte loads
 * of the position's input and VMLADAVA (opbridge_plane_channel_of; the position's bytes past its
 * channels meet zero weights), the output stage on four positions, a scatter of four bytes
 * `channels` apart. Where a group's windows would read past the input, its positions run from a
 * copy on the stack padded with zeros. */
int32_t opbridge_conv_2d_s8_folded_pointwise_by_channel(const opbridge_conv_s8_folded_params *params,
                                                        const int8_t *input, const int8_t *filter, int8_t *scratch,
                                                        int8_t *output) {
  if (!opbridge_conv_pointwise_by_channel_call_valid(params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  int8_t rest[OPBRIDGE_POINTWISE_BY_CHANNEL_REST_BYTES] __attribute__((aligned(16)));
  int8_t taps[OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH + 16] __attribute__((aligned(16)));
  uint8_t lanes[OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH] __attribute__((aligned(16)));
  const int32_t depth = params->input.channels;
  const int32_t units = params->output.channels;
  const int32_t positions = params->input.batches * params->input.height * params->input.width;
  /* Up to 8 channels, two positions a load (q0 holds the weights for the first, q1 for the second). */
  const int32_t in_pairs = depth <= 8;
  const int32_t vector_bytes = in_pairs ? 32 : 16 * ((depth + 15) / 16);
  const opbridge_plane_channel_fn run_plain =
      in_pairs ? opbridge_plane_pairs_of(2 * depth, 0) : opbridge_plane_channel_of(vector_bytes / 16, depth, 0);
  const opbridge_plane_channel_fn run_shifting_left =
      in_pairs ? opbridge_plane_pairs_of(2 * depth, 1) : opbridge_plane_channel_of(vector_bytes / 16, depth, 1);
  const opbridge_folded_requantization *rq = &params->requantization;
  /* In place: whole groups of four whose last load ends within the input, `past` bytes after the
   * group's last position's (its window's vectors, or the second pair's 16 bytes). */
  const int32_t past = in_pairs ? 16 - 2 * depth : vector_bytes - depth;
  int32_t direct = (positions * depth - past) / depth;
  direct = direct < 0 ? 0 : direct / 4 * 4;
  const int32_t left_over = positions - direct;
  for (int32_t i = 0; i < OPBRIDGE_POINTWISE_BY_CHANNEL_REST_BYTES; i += 16) {
    vst1q_s8(rest + i, vdupq_n_s8(0));
  }
  for (int32_t i = 0; i < left_over * depth; i += 16) {
    const mve_pred16_t copied = vctp8q((uint32_t)(left_over * depth - i));
    vstrbq_p_s8(rest + i, vldrbq_z_s8(input + direct * depth + i, copied), copied);
  }
  /* The weights' lanes: lane i reads tap i, lanes past the channels byte 64 of `taps` (a zero); in
   * pairs, lane 16 + i reads tap i - depth for the second position's bytes. */
  for (int32_t i = 0; i < vector_bytes; ++i) {
    const int32_t tap = in_pairs && i >= 16 ? i - 16 - depth : i;
    lanes[i] = (uint8_t)(tap >= 0 && tap < depth ? tap : OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH);
  }
  vst1q_s8(taps + OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH, vdupq_n_s8(0));
  opbridge_plane_channel_job job = {0}; /* the plane's fields stay unused: no input rows to copy */
  job.window_step = in_pairs ? 2 * depth : depth;
  job.destination_step = 4 * units;
  job.offset = rq->output_offset;
  job.taps = taps;
  job.rotations = lanes;
  job.output_row_bytes = 0;
  job.minimum = vdupq_n_s32(rq->activation_min);
  job.maximum = vdupq_n_s32(rq->activation_max);
  job.offsets = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)units);
  job.vector_bytes = vector_bytes;
  job.stride_height = 0;
  for (int32_t unit = 0; unit < units; ++unit) {
    for (int32_t i = 0; i < depth; i += 16) {
      const mve_pred16_t copied = vctp8q((uint32_t)(depth - i));
      vstrbq_p_s8(taps + i, vldrbq_z_s8(filter + unit * depth + i, copied), copied);
    }
    opbridge_plane_job_channel(&job, rq, unit);
    /* One output row of `direct` positions, then one of the rest; no input rows to copy. */
    for (int32_t part = 0; part < 2; ++part) {
      const int32_t count = part == 0 ? direct : left_over;
      if (count == 0) {
        continue;
      }
      job.window = part == 0 ? input : rest;
      job.destination = output + (part == 0 ? 0 : direct * units) + unit;
      job.groups = count / 4;
      job.tail = count % 4;
      job.rows_left = 1;
      job.y = 0;
      job.y_end = 0;
      job.slot = 0;
      (job.left > 0 ? run_shifting_left : run_plain)(&job);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* Input row `source` (`bytes` bytes: pixels of `channels` bytes) into the plane from `column`:
 * byte j goes to (j / channels) x column_bytes + j % channels, 8 bytes a widening load and a
 * scatter by the offsets of their place in the period of lcm(8, channels) bytes (`offsets`, one
 * vector of 8 a turn); `source` NULL writes the zero point instead (a row outside the input). */
static void opbridge_conv_plane_row(const int8_t *source, int32_t bytes, int8_t *column, const uint16_t *offsets,
                                    int32_t period_vectors, int32_t period_plane_bytes, int16x8_t zero_points) {
  int32_t turn = 0;
  for (int32_t j = 0; j < bytes; j += 8) {
    const mve_pred16_t lanes = vctp16q((uint32_t)(bytes - j));
    const int16x8_t values = source != NULL ? vldrbq_z_s16(source + j, lanes) : zero_points;
    vstrbq_scatter_offset_p_s16(column, vld1q_u16(offsets + 8 * turn), values, lanes);
    if (++turn == period_vectors) {
      turn = 0;
      column += period_plane_bytes;
    }
  }
}

/* Each output row's windows made contiguous, then each output channel over the row: the rows its
 * windows read (the zero point outside the input) copied into a plane of columns, each column
 * its filter height x channels bytes (the window's bytes for one x, rows then channels), so that a
 * window is the bytes of its filter width columns; one output channel at a time, its weights in
 * registers (gathered into the plane's order), each output one or more 16-byte loads and VMLADAVA
 * (opbridge_plane_channel_of). */
int32_t opbridge_conv_2d_s8_folded_planes(const opbridge_conv_s8_folded_params *params, const int8_t *input,
                                          const int8_t *filter, int8_t *scratch, int8_t *output) {
  if (!opbridge_conv_planes_call_valid(params, input, filter, scratch, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  int8_t plane[OPBRIDGE_CONV_PLANE_BYTES] __attribute__((aligned(16)));
  int8_t weights[OPBRIDGE_CONV_PLANE_WEIGHT_BYTES] __attribute__((aligned(16)));
  uint8_t lanes[OPBRIDGE_CONV_PLANE_MAX_WINDOW] __attribute__((aligned(16)));
  uint16_t offsets[8 * 16] __attribute__((aligned(16))); /* lcm(8, channels) <= 8 x 15 bytes */
  const opbridge_dims in = params->input;
  const opbridge_dims out = params->output;
  const int32_t channels = in.channels;
  const int32_t units = out.channels;
  const int32_t column_bytes = params->filter.height * channels;
  const int32_t window_bytes = column_bytes * params->filter.width;
  const int32_t vector_bytes = (window_bytes + 15) / 16 * 16;
  const int32_t window_step = params->stride_width * column_bytes;
  const opbridge_plane_channel_fn run_plain = opbridge_plane_channel_of(vector_bytes / 16, window_step, 0);
  const opbridge_plane_channel_fn run_shifting_left = opbridge_plane_channel_of(vector_bytes / 16, window_step, 1);
  const opbridge_folded_requantization *rq = &params->requantization;
  /* Unit u's weights in the filter's order at u x (window + 1), then a zero; lane i of a window
   * vector reads the tap of plane byte i (column x, row y, channel c), or that zero. */
  for (int32_t u = 0; u < units; ++u) {
    int8_t *row = weights + u * (window_bytes + 1);
    for (int32_t i = 0; i < window_bytes; i += 16) {
      const mve_pred16_t copied = vctp8q((uint32_t)(window_bytes - i));
      vstrbq_p_s8(row + i, vldrbq_z_s8(filter + u * window_bytes + i, copied), copied);
    }
    row[window_bytes] = 0;
  }
  for (int32_t i = 0; i < vector_bytes; ++i) {
    const int32_t x = i / column_bytes;
    const int32_t y = i % column_bytes / channels;
    lanes[i] = (uint8_t)(i < window_bytes ? (y * params->filter.width + x) * channels + i % channels : window_bytes);
  }
  /* Row copies: a period of lcm(8, channels) bytes, whose pixels take period / channels columns. */
  int32_t period = 8;
  while (period % channels != 0) {
    period += 8;
  }
  for (int32_t j = 0; j < period; ++j) {
    offsets[j] = (uint16_t)(j / channels * column_bytes + j % channels);
  }
  const int32_t period_plane_bytes = period / channels * column_bytes;
  const int16x8_t zero_points = vdupq_n_s16((int16_t)(-params->input_offset));
  for (int32_t i = 0; i < OPBRIDGE_CONV_PLANE_BYTES; i += 16) {
    vst1q_s8(plane + i, vdupq_n_s8((int8_t)(-params->input_offset)));
  }
  int8_t *first_column = plane + params->padding_width * column_bytes;
  const int32_t copied_bytes = opbridge_plane_inside_columns(params) * channels;
  const int32_t row_bytes = in.width * channels;
  opbridge_plane_channel_job job = {0}; /* the plane's ring fields stay unused: rows are copied here */
  job.window = plane;
  job.window_step = window_step;
  job.destination_step = 4 * units;
  job.groups = out.width / 4;
  job.tail = out.width % 4;
  job.offset = rq->output_offset;
  job.rotations = lanes;
  job.minimum = vdupq_n_s32(rq->activation_min);
  job.maximum = vdupq_n_s32(rq->activation_max);
  job.offsets = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)units);
  job.vector_bytes = vector_bytes;
  for (int32_t b = 0; b < out.batches; ++b) {
    const int8_t *image = input + b * in.height * row_bytes;
    for (int32_t oy = 0; oy < out.height; ++oy) {
      const int32_t y_origin = oy * params->stride_height - params->padding_height;
      for (int32_t y = 0; y < params->filter.height; ++y) {
        const int32_t iy = y_origin + y;
        opbridge_conv_plane_row(iy >= 0 && iy < in.height ? image + iy * row_bytes : NULL, copied_bytes,
                                first_column + y * channels, offsets, period / 8, period_plane_bytes, zero_points);
      }
      int8_t *destination = output + (b * out.height + oy) * out.width * units;
      for (int32_t u = 0; u < units; ++u) {
        opbridge_plane_job_channel(&job, rq, u);
        job.taps = weights + u * (window_bytes + 1);
        job.destination = destination + u;
        job.rows_left = 1;
        (job.left > 0 ? run_shifting_left : run_plain)(&job);
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
