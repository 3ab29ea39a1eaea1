/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED's folded int8 forms (opbridge_fully_connected_s8_folded*), Helium (MVE) variant for
 * the Cortex-M55. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include "cc/kernels/opbridge_folded_helium_internal.h"

/* What the rows functions below read: one input vector of whole 16-byte blocks against groups
 * of four units, whose weight rows follow one another, from `weights` to the group whose outputs
 * end at `end`. The stage's constants for four units are four vectors (multiplier, left shift,
 * right shift, rounding shift); the clamp bounds and the output offset follow them here, so that
 * one VLDM reads the seven vectors of a shared stage. */
typedef struct {
  const int8_t *x;          /* 0: the input vector, word-aligned (VLDM) */
  const int8_t *weights;    /* 4: the first weight row, word-aligned */
  int32_t depth;            /* 8: bytes of the vector and of each row, a multiple of 16 */
  int32_t chunks;           /* 12: whole 64-byte chunks of a row */
  int32_t tail_blocks;      /* 16: 16-byte blocks after them, 0-3 */
  const int32_t *bias;      /* 20: the first group's folded bias */
  int8_t *destination;      /* 24: the first group's outputs */
  int8_t *end;              /* 28: past the last group's outputs */
  const int32x4_t *stage;   /* 32: per channel, four vectors a group; shared, &multiplier */
  int32_t unused[3];        /* 36 */
  int32x4_t multiplier;     /* 48: a shared stage */
  int32x4_t left;           /* 64: max(shift, 0) */
  int32x4_t right;          /* 80: min(shift, 0) */
  int32x4_t round;          /* 96: -31 with a right shift (a negative value's sign bit), else -32 */
  int32x4_t minimum;        /* 112 */
  int32x4_t maximum;        /* 128 */
  int32x4_t offset;         /* 144 */
} opbridge_rows_job;

typedef char opbridge_rows_job_layout[(sizeof(void *) == 4 && offsetof(opbridge_rows_job, stage) == 32 &&
                                       offsetof(opbridge_rows_job, multiplier) == 48 &&
                                       offsetof(opbridge_rows_job, minimum) == 112 &&
                                       offsetof(opbridge_rows_job, offset) == 144)
                                          ? 1
                                          : -1];

/* Groups of four units a per-channel call takes: their stage constants (64 bytes a group) wait on
 * the stack. */
#define OPBRIDGE_ROWS_SPAN_GROUPS 16

void opbridge_helium_rows_shared(const opbridge_rows_job *job);
void opbridge_helium_rows_per_channel(const opbridge_rows_job *job);

/* The products of one 64-byte chunk of a row (weights at `w`, advanced) with the input chunk in
 * q4-q7: one VLDM of the row's four vectors, then a VMLADAVA each. */
#define OPBRIDGE_ROWS_CHUNK(w, acc)                                                                                   \
  "vldmia " w "!, {d0-d7}\n"                                                                                          \
  "vmlava.s8 " acc ", q4, q0\n"                                                                                       \
  "vmlava.s8 " acc ", q5, q1\n"                                                                                       \
  "vmlava.s8 " acc ", q6, q2\n"                                                                                       \
  "vmlava.s8 " acc ", q7, q3\n"

/* The last 1-3 blocks of the four rows (input r1; rows r3, r5, r7, r9, advanced): as a chunk, with
 * fewer vectors. */
#define OPBRIDGE_ROWS_TAIL1                                                                                           \
  "vldrb.8 q4, [r1]\n"                                                                                                \
  "vldrb.8 q0, [r3], #16\n"                                                                                           \
  "vmlava.s8 r0, q4, q0\n"                                                                                            \
  "vldrb.8 q0, [r5], #16\n"                                                                                           \
  "vmlava.s8 r2, q4, q0\n"                                                                                            \
  "vldrb.8 q0, [r7], #16\n"                                                                                           \
  "vmlava.s8 r4, q4, q0\n"                                                                                            \
  "vldrb.8 q0, [r9], #16\n"                                                                                           \
  "vmlava.s8 r12, q4, q0\n"

#define OPBRIDGE_ROWS_TAIL2                                                                                           \
  "vldmia r1, {d8-d11}\n"                                                                                             \
  "vldmia r3!, {d0-d3}\n"                                                                                             \
  "vmlava.s8 r0, q4, q0\n"                                                                                            \
  "vmlava.s8 r0, q5, q1\n"                                                                                            \
  "vldmia r5!, {d0-d3}\n"                                                                                             \
  "vmlava.s8 r2, q4, q0\n"                                                                                            \
  "vmlava.s8 r2, q5, q1\n"                                                                                            \
  "vldmia r7!, {d0-d3}\n"                                                                                             \
  "vmlava.s8 r4, q4, q0\n"                                                                                            \
  "vmlava.s8 r4, q5, q1\n"                                                                                            \
  "vldmia r9!, {d0-d3}\n"                                                                                             \
  "vmlava.s8 r12, q4, q0\n"                                                                                           \
  "vmlava.s8 r12, q5, q1\n"

#define OPBRIDGE_ROWS_TAIL3                                                                                           \
  "vldmia r1, {d8-d13}\n"                                                                                             \
  "vldmia r3!, {d0-d5}\n"                                                                                             \
  "vmlava.s8 r0, q4, q0\n"                                                                                            \
  "vmlava.s8 r0, q5, q1\n"                                                                                            \
  "vmlava.s8 r0, q6, q2\n"                                                                                            \
  "vldmia r5!, {d0-d5}\n"                                                                                             \
  "vmlava.s8 r2, q4, q0\n"                                                                                            \
  "vmlava.s8 r2, q5, q1\n"                                                                                            \
  "vmlava.s8 r2, q6, q2\n"                                                                                            \
  "vldmia r7!, {d0-d5}\n"                                                                                             \
  "vmlava.s8 r4, q4, q0\n"                                                                                            \
  "vmlava.s8 r4, q5, q1\n"                                                                                            \
  "vmlava.s8 r4, q6, q2\n"                                                                                            \
  "vldmia r9!, {d0-d5}\n"                                                                                             \
  "vmlava.s8 r12, q4, q0\n"                                                                                           \
  "vmlava.s8 r12, q5, q1\n"                                                                                           \
  "vmlava.s8 r12, q6, q2\n"

/* The output stage of the four sums in q7, with its constants in q0-q6 (multiplier, left shift,
 * right shift, rounding shift, minimum, maximum, offset), as opbridge_lanes_requantize; outputs r6. */
#define OPBRIDGE_ROWS_STAGE                                                                                           \
  "vshl.s32 q7, q7, q1\n" /* wraps, as TFLite's int32 shift */                                                        \
  "vqrdmulh.s32 q7, q7, q0\n"                                                                                         \
  "vshl.u32 q1, q7, q3\n" /* 1 for a negative value if there is a right shift, else 0 */                              \
  "vqsub.s32 q7, q7, q1\n"                                                                                            \
  "vrshl.s32 q7, q7, q2\n"                                                                                            \
  "vadd.i32 q7, q7, q6\n"                                                                                             \
  "vmax.s32 q7, q7, q4\n"                                                                                             \
  "vmin.s32 q7, q7, q5\n"                                                                                             \
  "vstrb.32 q7, [r6], #4\n"

/* Every group of four units: the sums start from the folded bias (r0, r2, r4, r12: VMLADAVA takes
 * even registers), the input's 64-byte chunks in q4-q7 by one VLDM each, each row's chunk (rows
 * r3, r5, r7, r9) by one VLDM into q0-q3 and four VMLADAVA: 21 instructions per 256 products, in
 * a low-overhead loop; then the row's last 1-3 blocks (the same, fewer vectors), then the output
 * stage in lanes, whose constants `stage_load` puts in q0-q6 (multiplier, left, right, rounding
 * shift, minimum, maximum, offset; r10 points at them). VLDM counts one instruction and moves up
 * to 64 bytes here; it needs word-aligned addresses, which the caller checks. The stack holds the
 * clamp bounds and offset (a per-channel stage reads them from there: VLDM takes no offset) at
 * [sp], then the input at [sp, #48], the chunks at #52, where a group's products start (the loop,
 * or the tail if there are no whole chunks) at #56, where the loop goes after (the tail, or the
 * stage) at #60, the end of the outputs at #64. r6 the outputs (a widening store takes a low
 * register), r8 the bias, r11 the depth; q4-q7 (d8-d15) are callee-saved. */
#define OPBRIDGE_HELIUM_ROWS_FUNCTION(name, stage_load)                                                               \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(name)                                                                           \
  "push {r4-r11, lr}\n"                                                                                               \
  "vpush {d8-d15}\n"                                                                                                  \
  "sub sp, sp, #76\n"                                                                                                 \
  "add r1, r0, #112\n"                                                                                                \
  "vldmia r1, {d8-d13}\n"                                                                                             \
  "vstmia sp, {d8-d13}\n" /* the bounds and the offset */                                                             \
  "ldr r1, [r0, #0]\n"                                                                                                \
  "str r1, [sp, #48]\n"                                                                                               \
  "ldr r1, [r0, #12]\n"                                                                                               \
  "str r1, [sp, #52]\n"                                                                                               \
  "ldr r2, [r0, #16]\n"                                                                                               \
  "adr r3, 30f\n"                                                                                                     \
  "ldr r2, [r3, r2, lsl #2]\n"                                                                                        \
  "str r2, [sp, #60]\n" /* after the loop: the tail or the stage */                                                   \
  "cbz r1, 2f\n" /* no whole chunks: a group starts at the tail */                                                    \
  "ldr r2, [r3, #16]\n"                                                                                               \
  "2:\n"                                                                                                              \
  "str r2, [sp, #56]\n"                                                                                               \
  "ldr r1, [r0, #28]\n"                                                                                               \
  "str r1, [sp, #64]\n"                                                                                               \
  "ldr r9, [r0, #4]\n"                                                                                                \
  "ldr r11, [r0, #8]\n"                                                                                               \
  "ldr r8, [r0, #20]\n"                                                                                               \
  "ldr r6, [r0, #24]\n"                                                                                               \
  "ldr r10, [r0, #32]\n"                                                                                              \
  "1:\n" /* a group */                                                                                                \
  "ldr r1, [sp, #48]\n"                                                                                               \
  "mov r3, r9\n" /* the last row ended where this group's first starts */                                             \
  "add r5, r3, r11\n"                                                                                                 \
  "add r7, r5, r11\n"                                                                                                 \
  "add r9, r7, r11\n"                                                                                                 \
  "ldrd r0, r2, [r8], #8\n"                                                                                           \
  "ldrd r4, r12, [r8], #8\n"                                                                                          \
  "ldr lr, [sp, #52]\n"                                                                                               \
  "ldr pc, [sp, #56]\n"                                                                                               \
  "20:\n" /* a chunk */                                                                                               \
  "vldmia r1!, {d8-d15}\n"                                                                                            \
  OPBRIDGE_ROWS_CHUNK("r3", "r0")                                                                                     \
  OPBRIDGE_ROWS_CHUNK("r5", "r2")                                                                                     \
  OPBRIDGE_ROWS_CHUNK("r7", "r4")                                                                                     \
  OPBRIDGE_ROWS_CHUNK("r9", "r12")                                                                                    \
  "le lr, 20b\n"                                                                                                      \
  "ldr pc, [sp, #60]\n"                                                                                               \
  "31:\n" OPBRIDGE_ROWS_TAIL1                                                                                         \
  "b 40f\n"                                                                                                           \
  "32:\n" OPBRIDGE_ROWS_TAIL2                                                                                         \
  "b 40f\n"                                                                                                           \
  "33:\n" OPBRIDGE_ROWS_TAIL3                                                                                         \
  "40:\n" /* the output stage */                                                                                      \
  "vmov.32 q7[0], r0\n"                                                                                               \
  "vmov.32 q7[1], r2\n"                                                                                               \
  "vmov.32 q7[2], r4\n"                                                                                               \
  "vmov.32 q7[3], r12\n"                                                                                              \
  stage_load                                                                                                          \
  OPBRIDGE_ROWS_STAGE                                                                                                 \
  "ldr r3, [sp, #64]\n"                                                                                               \
  "cmp r6, r3\n"                                                                                                      \
  "bne 1b\n"                                                                                                          \
  "add sp, sp, #76\n"                                                                                                 \
  "vpop {d8-d15}\n"                                                                                                   \
  "pop {r4-r11, pc}\n"                                                                                                \
  ".p2align 2\n"                                                                                                      \
  "30: .word 40b + 1, 31b + 1, 32b + 1, 33b + 1, 20b + 1\n" /* Thumb addresses: tails 0-3, the loop */                \
  OPBRIDGE_ASM_FUNCTION_END(name))

/* A shared stage: the seven vectors at r10 (the job's) in one VLDM. */
OPBRIDGE_HELIUM_ROWS_FUNCTION(opbridge_helium_rows_shared, "vldmia r10, {d0-d13}\n");
/* Per channel: the group's four vectors (advancing r10), then the bounds and offset. */
OPBRIDGE_HELIUM_ROWS_FUNCTION(opbridge_helium_rows_per_channel, "vldmia r10!, {d0-d7}\n"
                                                                 "vldmia sp, {d8-d13}\n");

/* The stage constants of four units whose shifts are `shift`, in the rows functions' order. */
static inline void opbridge_rows_stage(int32x4_t multiplier, int32x4_t shift, int32x4_t *stage) {
  const int32x4_t right = vminq_s32(shift, vdupq_n_s32(0));
  stage[0] = multiplier;
  stage[1] = vmaxq_s32(shift, vdupq_n_s32(0));
  stage[2] = right;
  stage[3] = vsubq_s32(vdupq_n_s32(-32), vshrq_n_s32(right, 31));
}

/* The job's fields every stage shares: `groups` groups of four units of one input vector of
 * `depth` bytes (a multiple of 16), the vector and the filter word-aligned (VLDM). Field by field:
 * an initializer would clear the whole job first. */
static inline void opbridge_rows_job_start(opbridge_rows_job *job, const int8_t *x, const int8_t *filter,
                                           int32_t depth, int32_t groups, const opbridge_folded_requantization *rq,
                                           int8_t *output) {
  job->x = x;
  job->weights = filter;
  job->depth = depth;
  job->chunks = depth / 64;
  job->tail_blocks = depth / 16 % 4;
  job->bias = rq->folded_bias;
  job->destination = output;
  job->end = output + 4 * groups;
  job->minimum = vdupq_n_s32(rq->activation_min);
  job->maximum = vdupq_n_s32(rq->activation_max);
  job->offset = vdupq_n_s32(rq->output_offset);
}

/* The rows functions over one shared stage (rq->per_channel 0). Not inlined, as the one below:
 * their frames are not under the fallback's (opbridge_units) nor one under the other. */
static __attribute__((noinline)) void opbridge_helium_rows_one_stage(const int8_t *x, const int8_t *filter,
                                                                     int32_t depth, int32_t groups,
                                                                     const opbridge_folded_requantization *rq,
                                                                     int8_t *output) {
  opbridge_rows_job job;
  opbridge_rows_job_start(&job, x, filter, depth, groups, rq, output);
  int32x4_t shared[4];
  opbridge_rows_stage(vdupq_n_s32(rq->multipliers[0]), vdupq_n_s32(rq->shifts[0]), shared);
  job.multiplier = shared[0];
  job.left = shared[1];
  job.right = shared[2];
  job.round = shared[3];
  job.stage = &job.multiplier;
  opbridge_helium_rows_shared(&job);
}

/* The rows functions with per-channel stage constants: the constants of a span of groups on the
 * stack, then the rows function over that span. */
static __attribute__((noinline)) void opbridge_helium_rows_in_spans(const int8_t *x, const int8_t *filter,
                                                                    int32_t depth, int32_t groups,
                                                                    const opbridge_folded_requantization *rq,
                                                                    int8_t *output) {
  int32x4_t stage[4 * OPBRIDGE_ROWS_SPAN_GROUPS];
  opbridge_rows_job job;
  opbridge_rows_job_start(&job, x, filter, depth, groups, rq, output);
  job.stage = stage;
  for (int32_t first = 0; first < groups; first += OPBRIDGE_ROWS_SPAN_GROUPS) {
    const int32_t span = groups - first < OPBRIDGE_ROWS_SPAN_GROUPS ? groups - first : OPBRIDGE_ROWS_SPAN_GROUPS;
    for (int32_t group = 0; group < span; ++group) {
      const int32_t unit = 4 * (first + group);
      opbridge_rows_stage(vldrwq_s32(rq->multipliers + unit), vldrwq_s32(rq->shifts + unit), stage + 4 * group);
    }
    job.weights = filter + 4 * first * depth;
    job.bias = rq->folded_bias + 4 * first;
    job.destination = output + 4 * first;
    job.end = job.destination + 4 * span;
    opbridge_helium_rows_per_channel(&job);
  }
}

/* opbridge_fully_connected_s8_folded and its _per_tensor form, after their checks: whole blocks of
 * units take the rows functions where the input and the filter are word-aligned (then every batch's
 * row is: such rows are multiples of 16 bytes) and the units past them opbridge_units; other calls
 * take opbridge_units for every unit. `per_channel` (a constant) 0 leaves out the per-channel rows
 * (opbridge_helium_rows_in_spans and its 1 KB of stage constants on the stack), a per-channel stage
 * then taking opbridge_units, so that a module whose layers all share one stage neither links that
 * path nor counts its stack. Every path is a call from this small frame, so the deepest is the
 * rows'. */
static inline __attribute__((always_inline)) int32_t opbridge_fully_connected_folded_body(
    const opbridge_fully_connected_s8_folded_params *params, const int8_t *input, const int8_t *filter,
    int8_t *output, const int32_t per_channel) {
  /* In locals: stores to the output could alias the caller's parameters, and would force reloads. */
  const int32_t batches = params->batches;
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  const opbridge_folded_requantization *rq = &params->requantization;
  const int32_t stage_per_channel = rq->per_channel;
  const int32_t whole_units = depth % 16 == 0 ? units / 4 * 4 : 0;
  const int32_t rows = whole_units > 0 && (((uintptr_t)input | (uintptr_t)filter) & 3) == 0 &&
                       (per_channel || !stage_per_channel);
  for (int32_t batch = 0; batch < batches; ++batch) {
    const int8_t *x = input + batch * depth;
    int8_t *row = output + batch * units;
    if (!rows) {
      opbridge_units(x, filter, depth, units, rq, row);
      continue;
    }
    if (per_channel && stage_per_channel) {
      opbridge_helium_rows_in_spans(x, filter, depth, whole_units / 4, rq, row);
    } else {
      opbridge_helium_rows_one_stage(x, filter, depth, whole_units / 4, rq, row);
    }
    if (whole_units < units) {
      opbridge_folded_requantization rest = *rq;
      rest.folded_bias += whole_units;
      rest.multipliers += stage_per_channel ? whole_units : 0;
      rest.shifts += stage_per_channel ? whole_units : 0;
      opbridge_units(x, filter + whole_units * depth, depth, units - whole_units, &rest, row + whole_units);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_fully_connected_s8_folded(const opbridge_fully_connected_s8_folded_params *params,
                                           const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_fully_connected_folded_body(params, input, filter, output, 1);
}

int32_t opbridge_fully_connected_s8_folded_per_tensor(const opbridge_fully_connected_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_fully_connected_folded_body(params, input, filter, output, 0);
}

/* The filter is plain in this variant (OPBRIDGE_DSP_WEIGHT_LAYOUT is 0). */
int32_t opbridge_fully_connected_s8_folded_dsp_layout(const opbridge_fully_connected_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_dsp_layout_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_fully_connected_s8_folded(params, input, filter, output);
}

int32_t opbridge_fully_connected_s8_folded_dsp_layout_per_tensor(
    const opbridge_fully_connected_s8_folded_params *params, const int8_t *input, const int8_t *filter,
    int8_t *output) {
  if (!opbridge_fully_connected_dsp_layout_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  /* The body itself, not a call to opbridge_fully_connected_s8_folded_per_tensor: its checks again
   * would cost each layer about 20 instructions. */
  return opbridge_fully_connected_folded_body(params, input, filter, output, 0);
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

#endif /* OPBRIDGE_KERNELS_HELIUM */
