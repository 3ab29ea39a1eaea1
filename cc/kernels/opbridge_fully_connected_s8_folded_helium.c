/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED's folded int8 forms (opbridge_fully_connected_s8_folded*), Helium (MVE) variant for
 * the Cortex-M55. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include "cc/kernels/opbridge_folded_helium_internal.h"

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

/* The filter is plain in this variant (OPBRIDGE_DSP_WEIGHT_LAYOUT is 0). */
int32_t opbridge_fully_connected_s8_folded_dsp_layout(const opbridge_fully_connected_s8_folded_params *params,
                                                      const int8_t *input, const int8_t *filter, int8_t *output) {
  if (!opbridge_fully_connected_dsp_layout_call_valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  return opbridge_fully_connected_s8_folded(params, input, filter, output);
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
