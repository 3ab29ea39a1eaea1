/* SPDX-License-Identifier: Apache-2.0 */
/* What the DSP variant (Cortex-M4) of the folded int8 forms shares between the C loops of
 * opbridge_folded_s8.c and its assembly in opbridge_folded_s8_dsp.c (docs/kernels.md): SIMD
 * loads, the assembly's job structs (their layouts checked at compile time) and output stage,
 * and OPBRIDGE_DSP_ASSEMBLY, 1 where the assembly builds (DSP variant, Thumb-2). Not part of the API. */
#ifndef OPBRIDGE_FOLDED_DSP_INTERNAL_H_
#define OPBRIDGE_FOLDED_DSP_INTERNAL_H_

#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_folded_internal.h"
#include "cc/kernels/opbridge_kernel_variant.h"

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

#if OPBRIDGE_KERNELS_DSP && defined(__thumb2__)
/* The assembly's jobs (opbridge_folded_s8_dsp.c): each function reads its job struct by offset. */
/* The output stage's part of every job, at its start. */
typedef struct {
  int32_t groups;             /* 0: groups of outputs, > 0 (consumed) */
  const int32_t *bias;        /* 4: the folded bias (advanced) */
  const int32_t *multipliers; /* 8: one per output of a group ... (advanced) */
  const int32_t *shifts;      /* 12: ... each <= -1 (advanced) */
  int32_t stage_step;         /* 16: bytes the two above advance per group; 0 per tensor */
  int8_t *output;             /* 20: the group's outputs (advanced) */
  int32_t output_offset;      /* 24 */
  int32_t activation_min;     /* 28 */
  int32_t activation_max;     /* 32 */
} opbridge_dsp_stage;

typedef char opbridge_dsp_stage_layout[(offsetof(opbridge_dsp_stage, stage_step) == 16 &&
                                        offsetof(opbridge_dsp_stage, activation_max) == 32 &&
                                        sizeof(opbridge_dsp_stage) == 36)
                                           ? 1
                                           : -1];

/* One multiplier and shift repeated for the four outputs of a group (per-tensor quantization). */
typedef struct {
  int32_t multipliers[4];
  int32_t shifts[4];
} opbridge_dsp_shared_stage;

static inline opbridge_dsp_shared_stage opbridge_dsp_shared_stage_of(const opbridge_folded_requantization *rq) {
  opbridge_dsp_shared_stage shared;
  for (int32_t k = 0; k < 4; ++k) {
    shared.multipliers[k] = rq->multipliers[0];
    shared.shifts[k] = rq->shifts[0];
  }
  return shared;
}

/* The stage's constants, for groups of `group_outputs` outputs. */
static inline void opbridge_dsp_stage_init(opbridge_dsp_stage *stage, const opbridge_folded_requantization *rq,
                                           int32_t group_outputs) {
  stage->stage_step = rq->per_channel ? 4 * group_outputs : 0;
  stage->output_offset = rq->output_offset;
  stage->activation_min = rq->activation_min;
  stage->activation_max = rq->activation_max;
}

/* The stage from channel 0 again (the assembly advances it): `groups` groups written to `output`. */
static inline void opbridge_dsp_stage_restart(opbridge_dsp_stage *stage, const opbridge_folded_requantization *rq,
                                              const opbridge_dsp_shared_stage *shared, int32_t groups,
                                              int8_t *output) {
  stage->groups = groups;
  stage->bias = rq->folded_bias;
  stage->multipliers = rq->per_channel ? rq->multipliers : shared->multipliers;
  stage->shifts = rq->per_channel ? rq->shifts : shared->shifts;
  stage->output = output;
}

/* The `_full` functions saturate with SSAT (activation range [-128, 127]); the `_clamped` ones
 * compare and move. */
static inline int32_t opbridge_dsp_full_range(const opbridge_folded_requantization *rq) {
  return rq->activation_min == -128 && rq->activation_max == 127;
}

/* All groups of four units of one window. Per 4 input bytes one load and two SXTB16 for the
 * input, shared by the units, and per unit one load, two SXTB16 and two SMLAD (4 products): 24
 * instructions per 16 products, the loop unrolled twice. */
typedef struct {
  opbridge_dsp_stage stage; /* 0: groups of four units */
  const int8_t *x;          /* 36: the window's first row */
  const int8_t *w;          /* 40: unit 0's weights (rows x run bytes); unit k's k * depth further */
  int32_t depth;            /* 44: bytes between consecutive units' weights */
  int32_t run;              /* 48: bytes per window row: a positive multiple of 4 */
  int32_t rows;             /* 52: window rows, > 0 */
  int32_t row_skip;         /* 56: bytes from the end of one window row to the start of the next */
  int32_t rows_left;        /* 60: scratch */
} opbridge_dsp_window4_job;

typedef char opbridge_dsp_window4_job_layout[(offsetof(opbridge_dsp_window4_job, x) == 36 &&
                                              offsetof(opbridge_dsp_window4_job, rows_left) == 60)
                                                 ? 1
                                                 : -1];

void opbridge_dsp_window4_full(opbridge_dsp_window4_job *job);
void opbridge_dsp_window4_clamped(opbridge_dsp_window4_job *job);

/* The output stage of opbridge_dsp_depthwise4_*, per group of four channels: their folded
 * biases doubled (as the widened weights), then each channel's M, R = 2^(r-1) and r (as
 * opbridge_dsp_pair_stage's), built once per call on the stack. */
typedef struct {
  int32_t bias[4];
  int32_t constants[4][3];
} opbridge_dsp_depthwise_stage;

/* DEPTHWISE_CONV_2D (multiplier 1) of one output position, four channels at a time: per tap one
 * load of the tap's pointer, one of its 4 input bytes (SXTB16 into even and odd int16 pairs), one
 * LDRD of the 4 weights widened and doubled on the stack once per call ([w2, w0], [w3, w1]) and four
 * SMLABB/SMLATT, 9 instructions per 4 products. A tap outside the input points at a row of the
 * input zero point, whose products cancel the folded bias's share of it. */
typedef struct {
  const int8_t *const *taps;                /* 0: each tap's input pixel (or the zero-point row), channel 0 */
  const int8_t *const *taps_end;            /* 4 */
  const int32_t *weights;                   /* 8: per group, per tap, two words: [w2, w0], [w3, w1] */
  const opbridge_dsp_depthwise_stage *stage; /* 12: the first group's */
  int8_t *output;                           /* 16: the first group's outputs (advanced) */
  int32_t output_offset;                    /* 20 */
  int32_t activation_min;                   /* 24 */
  int32_t activation_max;                   /* 28 */
  int32_t groups;                           /* 32: > 0 (consumed) */
  int32_t odd_taps;                         /* 36: 1 if the tap count is odd */
  int32_t channel;                          /* 40: the first group's first channel's byte offset */
} opbridge_dsp_depthwise4_job;

typedef char opbridge_dsp_depthwise4_job_layout[(sizeof(opbridge_dsp_depthwise_stage) == 64 &&
                                                 offsetof(opbridge_dsp_depthwise4_job, output_offset) == 20 &&
                                                 offsetof(opbridge_dsp_depthwise4_job, channel) == 40)
                                                    ? 1
                                                    : -1];

void opbridge_dsp_depthwise4_full(opbridge_dsp_depthwise4_job *job);
void opbridge_dsp_depthwise4_clamped(opbridge_dsp_depthwise4_job *job);

/* A 1x1 CONV_2D over 8 or 16 input channels (opbridge_dsp_pointwise), position by position: the
 * position's bytes widened once into int16 pairs held in registers, then per output channel its
 * weight pairs and doubled bias in LDMs, an SMLAD per pair, one LDM of its stage, the short stage
 * with the output offset inside its rounding term, and a byte store, two output channels a loop
 * step: 13.5 instructions an output over 8 channels, 20.5 over 16 (full int8 range), where the pairs
 * of positions spend 25 to 48 on such layers. */
typedef struct {
  const int32_t *units;     /* 0: per output channel: its weight pairs [2 w0, 2 w2], [2 w1, 2 w3], [2 w4, 2 w6],
                               [2 w5, 2 w7] (int16), 2 x folded bias, over 16 channels four more pairs of
                               w8-w15, then M, R + (output offset << r), r */
  const int32_t *units_end; /* 4 */
  const int8_t *input;      /* 8: the next position's bytes (advanced) */
  int8_t *output;           /* 12: the first position's first output of the turn */
  int32_t positions;        /* 16: > 0 (consumed) */
  int32_t activation_min;   /* 20 */
  int32_t activation_max;   /* 24 */
  int32_t output_skip;      /* 28: bytes from a position's last output of the turn to the next one's first */
  int32_t odd_units;        /* 32: 1 if the turn has an odd number of output channels (two a loop step) */
} opbridge_dsp_pointwise_job;

typedef char opbridge_dsp_pointwise_job_layout[(offsetof(opbridge_dsp_pointwise_job, positions) == 16 &&
                                                offsetof(opbridge_dsp_pointwise_job, activation_min) == 20 &&
                                                offsetof(opbridge_dsp_pointwise_job, output_skip) == 28 &&
                                                offsetof(opbridge_dsp_pointwise_job, odd_units) == 32)
                                                   ? 1
                                                   : -1];

void opbridge_dsp_pointwise8_full(opbridge_dsp_pointwise_job *job);
void opbridge_dsp_pointwise8_clamped(opbridge_dsp_pointwise_job *job);
void opbridge_dsp_pointwise16_full(opbridge_dsp_pointwise_job *job);
void opbridge_dsp_pointwise16_clamped(opbridge_dsp_pointwise_job *job);

/* DEPTHWISE_CONV_2D (multiplier 1) of one channel over one output row, four positions a group, from
 * int16 planes of the channel's input rows (opbridge_dsp_depthwise_planar): SMLAD's pairs run along a
 * window row, so one word of the plane against one word of weights is two taps of one output, and
 * each plane word loaded serves every position of the group whose window holds it (stride 2: four
 * positions over a row of `words` pairs take 3 + words loads instead of 4 x words). Weights and bias
 * are doubled, so the sums are the doubled accumulator the short stage multiplies (SMMULR), then
 * (x + R - (x < 0)) >> r, the output offset and the clamp, as opbridge_dsp_depthwise4_*. Functions
 * per stride (1, 2) and pairs per window row (2-4: filters 3 to 8 wide), full range or clamped. */
typedef struct {
  const int16_t *const *rows;     /* 0: the window's plane rows, one per filter row, at their column 0 */
  const int16_t *const *rows_end; /* 4 */
  const int32_t *weights;         /* 8: per filter row, `words` int16 pairs [2 w(2j), 2 w(2j + 1)] (0 past it) */
  int8_t *output;                 /* 12: the group's first output (advanced) */
  int32_t output_step;            /* 16: bytes between consecutive positions' outputs: the channel count */
  int32_t bias;                   /* 20: twice the channel's folded bias */
  int32_t multiplier;             /* 24: M */
  int32_t round;                  /* 28: R = 2^(r-1) */
  int32_t shift;                  /* 32: r, 1 to 31 */
  int32_t output_offset;          /* 36 */
  int32_t activation_min;         /* 40 */
  int32_t activation_max;         /* 44 */
  int32_t column;                 /* 48: the first group's first window's byte offset into a plane row */
  int32_t column_end;             /* 52: the offset after the last group's: column + 8 x stride x groups */
} opbridge_dsp_plane_job;

typedef char opbridge_dsp_plane_job_layout[(offsetof(opbridge_dsp_plane_job, output_step) == 16 &&
                                            offsetof(opbridge_dsp_plane_job, round) == 28 &&
                                            offsetof(opbridge_dsp_plane_job, activation_min) == 40 &&
                                            offsetof(opbridge_dsp_plane_job, column_end) == 52)
                                               ? 1
                                               : -1];

/* opbridge_dsp_plane_s<stride>_w<words>_<full|clamped>. */
#define OPBRIDGE_DSP_PLANE_DECLARE(stride, words)                                                                 \
  void opbridge_dsp_plane_s##stride##_w##words##_full(opbridge_dsp_plane_job *job);                               \
  void opbridge_dsp_plane_s##stride##_w##words##_clamped(opbridge_dsp_plane_job *job);
OPBRIDGE_DSP_PLANE_DECLARE(1, 2)
OPBRIDGE_DSP_PLANE_DECLARE(1, 3)
OPBRIDGE_DSP_PLANE_DECLARE(1, 4)
OPBRIDGE_DSP_PLANE_DECLARE(2, 2)
OPBRIDGE_DSP_PLANE_DECLARE(2, 3)
OPBRIDGE_DSP_PLANE_DECLARE(2, 4)
#undef OPBRIDGE_DSP_PLANE_DECLARE

/* The output stage of opbridge_dsp_pair2_*, per pair of units (a, b): each unit's folded bias,
 * multiplier M, rounding R = 2^(r-1) and right shift r >= 1, built once per call (on the stack)
 * so the assembly loads a unit's three with one LDM. With |acc| < 2^30 (checked per call:
 * opbridge_folded_doubling_fits), TFLite's rescale is SMMULR(2 * acc, M), which is the rounding
 * doubling high multiply, then (x + R - (x < 0)) >> r, its rounding right shift. */
typedef struct {
  int32_t bias[2];
  int32_t a[3]; /* M, R, r */
  int32_t b[3];
} opbridge_dsp_pair_stage;

/* Two windows by two units at a time, from the two windows widened to int16 pairs and
 * interleaved on the stack ([window 0 even, window 0 odd, window 1 even, window 1 odd] per 4
 * input bytes, one LDM): per 4 input bytes per unit one load, two SXTB16 and four SMLAD (8
 * products), so 15 instructions per 16 products, each weight unpacked once for both windows;
 * each unit's stage constants are loaded once for both windows. */
typedef struct {
  const opbridge_dsp_pair_stage *stage; /* 0: this pair of units' (advanced) */
  const int8_t *w;                      /* 4: the pair's first unit's weights (advanced) */
  int32_t depth;                        /* 8: bytes per unit's weights */
  const int32_t *windows;               /* 12: the two windows, widened and interleaved */
  int32_t words;                        /* 16: depth / 4, > 0 */
  int8_t *output;                       /* 20: window 0's outputs of the pair (advanced) */
  int8_t *second_output;                /* 24: window 1's (advanced; window 0's for an odd last window) */
  int32_t output_offset;                /* 28 */
  int32_t activation_min;               /* 32 */
  int32_t activation_max;               /* 36 */
  int32_t pairs;                        /* 40: pairs of units left, > 0 (consumed) */
} opbridge_dsp_pair2_job;

typedef char opbridge_dsp_pair2_job_layout[(sizeof(opbridge_dsp_pair_stage) == 32 &&
                                            offsetof(opbridge_dsp_pair2_job, windows) == 12 &&
                                            offsetof(opbridge_dsp_pair2_job, output_offset) == 28 &&
                                            offsetof(opbridge_dsp_pair2_job, pairs) == 40)
                                               ? 1
                                               : -1];

void opbridge_dsp_pair2_full(opbridge_dsp_pair2_job *job);
void opbridge_dsp_pair2_clamped(opbridge_dsp_pair2_job *job);

/* FULLY_CONNECTED over a filter in the DSP layout (opbridge_fully_connected_s8_folded_dsp_layout),
 * two units at a time. In that layout each 16-bit half of a filter word is 256 x w1 + w0 exactly
 * (w1 stored less 1 where w0 is negative), and SXTB16 of the word gives [w2, w0]. The input row is
 * widened once per call into Q = [x3 - 127, x1 - 127] and R = [256 x2 - Q.hi, 256 x0 - Q.lo] per 4
 * bytes (all within int16), so SMLAD(word, Q) + SMLAD(SXTB16(word), R) is 256 times the 4 products
 * with the odd inputs less 127: per 8 inputs per unit one LDRD, two SXTB16 and four SMLAD, 15
 * instructions per 16 products for two units. The sum, shifted right by 8, plus the layout's
 * folded bias (which adds back 127 x the odd weights) is the accumulator; then the stage of the
 * pairs (opbridge_dsp_pair_stage's M, R and r: one set per tensor, or per unit on the stack). */
typedef struct {
  const int32_t *inputs;     /* 0: Q, R per 4 input bytes */
  int32_t input_bytes;       /* 4: 2 x depth */
  const int32_t *w;          /* 8: the pair's first unit's filter words (advanced) */
  int32_t depth;             /* 12: bytes per unit */
  const int32_t *bias;       /* 16: the pair's folded biases (advanced) */
  int8_t *output;            /* 20: the pair's outputs (advanced) */
  int32_t output_offset;     /* 24 */
  int32_t activation_min;    /* 28 */
  int32_t activation_max;    /* 32 */
  int32_t pairs;             /* 36: > 0 (consumed) */
  int32_t odd_steps;         /* 40: 1 if depth / 8 is odd */
  const int32_t *constants;  /* 44: the unit's M, R, r (advanced by constants_step a unit) */
  int32_t constants_step;    /* 48: 12 per channel, 0 per tensor */
} opbridge_dsp_fc_pairs_job;

typedef char opbridge_dsp_fc_pairs_job_layout[(offsetof(opbridge_dsp_fc_pairs_job, bias) == 16 &&
                                               offsetof(opbridge_dsp_fc_pairs_job, odd_steps) == 40 &&
                                               offsetof(opbridge_dsp_fc_pairs_job, constants_step) == 48)
                                                  ? 1
                                                  : -1];

void opbridge_dsp_fc_pairs_full(opbridge_dsp_fc_pairs_job *job);
void opbridge_dsp_fc_pairs_clamped(opbridge_dsp_fc_pairs_job *job);

/* ADD/SUB tables for the full int8 activation range and a right shift of at least 1, one
 * element per pass: two byte loads, two table loads, and the output stage of the forms above
 * (one 64-bit sum, SSAT): 17 instructions an element. Layout checked below. */
typedef struct {
  const int8_t *input1; /* 0 */
  const int8_t *input2; /* 4 */
  int8_t *output;       /* 8 */
  int32_t count;        /* 12: > 0 */
  const int32_t *table1; /* 16: entry 128 (byte 0) */
  const int32_t *table2; /* 20 */
  int32_t multiplier;   /* 24 */
  int32_t right_minus_1; /* 28: the right shift less 1 */
  int32_t output_offset; /* 32 */
} opbridge_dsp_add_job;

typedef char opbridge_dsp_add_job_layout[(offsetof(opbridge_dsp_add_job, count) == 12 &&
                                          offsetof(opbridge_dsp_add_job, output_offset) == 32)
                                             ? 1
                                             : -1];

void opbridge_dsp_add_full(const opbridge_dsp_add_job *job);

/* In assembly: acc clamped to the activation range held in `low` and `high` (each function's own
 * registers). */
#define OPBRIDGE_DSP_CLAMP(acc, low, high)                                                                        \
  "cmp " acc ", " low "\n"                                                                                       \
  "it lt\n"                                                                                                      \
  "movlt " acc ", " low "\n"                                                                                     \
  "cmp " acc ", " high "\n"                                                                                      \
  "it gt\n"                                                                                                      \
  "movgt " acc ", " high "\n"

#define OPBRIDGE_DSP_ASSEMBLY 1
#else
#define OPBRIDGE_DSP_ASSEMBLY 0
#endif

#endif /* OPBRIDGE_FOLDED_DSP_INTERNAL_H_ */
