/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED with int16 activations and int8 weights, Helium (MVE) variant for the Cortex-M55:
 * what opbridge_fully_connected_s16.c calls, eight int16 x int8 products per step: the int64-bias
 * kernel's units four at a time in assembly, output stage included, and the dot products of the
 * int32-bias kernel and of the units left over. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM

#include <arm_mve.h>
#include <stddef.h>

#include "cc/kernels/opbridge_folded_internal.h"
#include "cc/kernels/opbridge_fully_connected_s16_internal.h"

/* The weights widen to int16 as they load (VLDRB.S16); each product fits 32 bits and VMLALDAVA
 * adds them into a 64-bit sum without rounding, so the order of the terms does not matter. The
 * last step's lanes past `depth` are predicated off: they read nothing. */
int64_t opbridge_dot_s16_s8_helium(const int16_t *input, const int8_t *weights, int32_t depth) {
  int64_t sum = 0;
  int32_t d = 0;
  for (; d + 8 <= depth; d += 8) {
    sum = vmlaldavaq_s16(sum, vld1q_s16(input + d), vldrbq_s16(weights + d));
  }
  if (d < depth) {
    const mve_pred16_t lanes = vctp16q((uint32_t)(depth - d));
    sum = vmlaldavaq_p_s16(sum, vldrhq_z_s16(input + d, lanes), vldrbq_z_s16(weights + d, lanes), lanes);
  }
  return sum;
}

/* VMLADAVA keeps the low 32 bits of the exact sum: the wrapping int32 accumulator. */
uint32_t opbridge_dot_s16_s8_wrapping_helium(const int16_t *input, const int8_t *weights, int32_t depth) {
  int32_t sum = 0;
  int32_t d = 0;
  for (; d + 8 <= depth; d += 8) {
    sum = vmladavaq_s16(sum, vld1q_s16(input + d), vldrbq_s16(weights + d));
  }
  if (d < depth) {
    const mve_pred16_t lanes = vctp16q((uint32_t)(depth - d));
    sum = vmladavaq_p_s16(sum, vldrhq_z_s16(input + d, lanes), vldrbq_z_s16(weights + d, lanes), lanes);
  }
  return (uint32_t)sum;
}

/* Four units' sums over one row, read once for all four: VMLALDAVA adds each unit's eight
 * products into its own 64-bit sum. */
void opbridge_dot4_s16_s8_helium(const int16_t *input, const int8_t *weights, int32_t depth, int64_t sums[4]) {
  const int8_t *w0 = weights;
  const int8_t *w1 = w0 + depth;
  const int8_t *w2 = w1 + depth;
  const int8_t *w3 = w2 + depth;
  int64_t s0 = 0;
  int64_t s1 = 0;
  int64_t s2 = 0;
  int64_t s3 = 0;
  for (int32_t d = 0; d < depth; d += 8) {
    const mve_pred16_t lanes = vctp16q((uint32_t)(depth - d));
    const int16x8_t x = vldrhq_z_s16(input + d, lanes);
    s0 = vmlaldavaq_p_s16(s0, x, vldrbq_z_s16(w0 + d, lanes), lanes);
    s1 = vmlaldavaq_p_s16(s1, x, vldrbq_z_s16(w1 + d, lanes), lanes);
    s2 = vmlaldavaq_p_s16(s2, x, vldrbq_z_s16(w2 + d, lanes), lanes);
    s3 = vmlaldavaq_p_s16(s3, x, vldrbq_z_s16(w3 + d, lanes), lanes);
  }
  sums[0] = s0;
  sums[1] = s1;
  sums[2] = s2;
  sums[3] = s3;
}

/* What opbridge_helium_s16_units reads, and moves from group to group (weights, bias, multipliers,
 * shifts, destination, groups). */
typedef struct {
  const int16_t *row;         /* 0 */
  int32_t depth;              /* 4: > 0 */
  const int8_t *weights;      /* 8: the group's first weight row */
  const int64_t *bias;        /* 12: the group's first bias */
  int32_t bias_step;          /* 16: bytes to the next group's (0: four zeros for all) */
  const int32_t *multipliers; /* 20 */
  const int32_t *shifts;      /* 24 */
  int32_t channel_step;       /* 28: bytes from one unit's multiplier and shift to the next's (0: shared) */
  int32_t offset;             /* 32: output offset */
  int16_t *destination;       /* 36 */
  int32_t groups;             /* 40: groups of four units left, > 0 */
  int32_t unused;             /* 44 */
  int32x4_t minimum;          /* 48 */
  int32x4_t maximum;          /* 64 */
} opbridge_s16_units_job;

void opbridge_helium_s16_units(opbridge_s16_units_job *job);

typedef char opbridge_s16_units_job_layout[(sizeof(void *) == 4 &&
                                            offsetof(opbridge_s16_units_job, groups) == 40 &&
                                            offsetof(opbridge_s16_units_job, minimum) == 48 &&
                                            offsetof(opbridge_s16_units_job, maximum) == 64)
                                               ? 1
                                               : -1];

/* One unit's output stage, its sum in lo:hi: TFLite's 64-bit rescale (opbridge_rescale_s64) with
 * the multiplier at [r4] rounded to 16 bits (USAT: at most 0x7FFF), the product by UMULL and MLA,
 * and its rounding right shift by 15 - shift (8 to 46 bits) one SQRSHRL, which adds 2^(n-1)
 * before it shifts, as TFLite does (the product lies within 2^62: nothing saturates). r4 and r5
 * step to the next channel's multiplier and shift by lr bytes (0 for one shared by all). */
#define S16_OUTPUT_STAGE(lo, hi)                                                                                    \
  "ldr r6, [r4]\n"                                                                                                  \
  "ldr r7, [r5]\n"                                                                                                  \
  "add r4, r4, lr\n"                                                                                                \
  "add r5, r5, lr\n"                                                                                                \
  "add r6, r6, #32768\n"                                                                                            \
  "lsr r6, r6, #16\n"                                                                                               \
  "usat r6, #15, r6\n"                                                                                              \
  "rsb r7, r7, #15\n"                                                                                               \
  "umull " lo ", r12, " lo ", r6\n"                                                                                 \
  "mla " hi ", " hi ", r6, r12\n"                                                                                   \
  "sqrshrl " lo ", " hi ", #64, r7\n"

/* Every group of four units: the sums start from their biases (r0:r1, r2:r3, r8:r9, r10:r11),
 * a tail-predicated loop of 8 values (DLSTP/LETP: lanes past the depth read nothing) loads the
 * input once (r12) and each weight row (r4-r7: widening loads take low registers) into q1 for
 * its VMLALDAVA, then each unit's stage (above) and the four outputs offset (q2), clamped (q3,
 * q4) and stored as int16 by one VSTRH.32. The job (at [sp]) keeps what moves from group to
 * group; q4 (d8, d9) is callee-saved. */
__asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(opbridge_helium_s16_units)
        "push {r0, r4-r11, lr}\n"
        "vpush {d8-d9}\n"
        "ldr r1, [r0, #32]\n"
        "vdup.32 q2, r1\n"
        "vldrw.32 q3, [r0, #48]\n"
        "vldrw.32 q4, [r0, #64]\n"
        "1:\n"
        "ldr lr, [sp, #16]\n"
        "ldr r0, [lr, #4]\n" /* depth */
        "ldr r4, [lr, #8]\n" /* the group's first weight row */
        "add r5, r4, r0\n"
        "add r6, r5, r0\n"
        "add r7, r6, r0\n"
        "add r1, r7, r0\n"
        "str r1, [lr, #8]\n"
        "ldr r2, [lr, #12]\n" /* biases */
        "ldr r3, [lr, #16]\n"
        "add r3, r2, r3\n"
        "str r3, [lr, #12]\n"
        "ldr r12, [lr, #0]\n" /* the row */
        "mov lr, r0\n"
        "ldrd r8, r9, [r2, #16]\n"
        "ldrd r10, r11, [r2, #24]\n"
        "ldrd r0, r1, [r2]\n"
        "ldrd r2, r3, [r2, #8]\n"
        "dlstp.16 lr, lr\n"
        "2:\n"
        "vldrh.s16 q0, [r12], #16\n"
        "vldrb.s16 q1, [r4], #8\n"
        "vmlaldava.s16 r0, r1, q0, q1\n"
        "vldrb.s16 q1, [r5], #8\n"
        "vmlaldava.s16 r2, r3, q0, q1\n"
        "vldrb.s16 q1, [r6], #8\n"
        "vmlaldava.s16 r8, r9, q0, q1\n"
        "vldrb.s16 q1, [r7], #8\n"
        "vmlaldava.s16 r10, r11, q0, q1\n"
        "letp lr, 2b\n"
        "ldr lr, [sp, #16]\n"
        "ldr r4, [lr, #20]\n" /* multipliers */
        "ldr r5, [lr, #24]\n" /* shifts */
        "ldr lr, [lr, #28]\n" /* their step */
        S16_OUTPUT_STAGE("r0", "r1") S16_OUTPUT_STAGE("r2", "r3") S16_OUTPUT_STAGE("r8", "r9")
            S16_OUTPUT_STAGE("r10", "r11")
        "vmov.32 q0[0], r0\n"
        "vmov.32 q0[1], r2\n"
        "vmov.32 q0[2], r8\n"
        "vmov.32 q0[3], r10\n"
        "vadd.i32 q0, q0, q2\n"
        "vmax.s32 q0, q0, q3\n"
        "vmin.s32 q0, q0, q4\n"
        "ldr lr, [sp, #16]\n"
        "str r4, [lr, #20]\n"
        "str r5, [lr, #24]\n"
        "ldr r4, [lr, #36]\n"
        "vstrh.32 q0, [r4], #8\n"
        "str r4, [lr, #36]\n"
        "ldr r4, [lr, #40]\n"
        "subs r4, r4, #1\n"
        "str r4, [lr, #40]\n"
        "bne 1b\n"
        "vpop {d8-d9}\n"
        "pop {r0, r4-r11, pc}\n"
        OPBRIDGE_ASM_FUNCTION_END(opbridge_helium_s16_units));

int32_t opbridge_fully_connected_s16_units_helium(const opbridge_fully_connected_s8_params *params,
                                                  const int16_t *row, const int8_t *filter, const int64_t *bias,
                                                  int16_t *row_output) {
  static const int64_t no_bias[4] = {0, 0, 0, 0};
  const int32_t groups = params->output_depth / 4;
  if (groups == 0 || params->input_depth <= 0) {
    return 0;
  }
  opbridge_s16_units_job job = {
      row,
      params->input_depth,
      filter,
      bias == NULL ? no_bias : bias,
      bias == NULL ? 0 : 4 * (int32_t)sizeof(int64_t),
      params->requantization.multipliers,
      params->requantization.shifts,
      params->requantization.count == 1 ? 0 : (int32_t)sizeof(int32_t),
      params->output_offset,
      row_output,
      groups,
      0,
      vdupq_n_s32(params->activation_min),
      vdupq_n_s32(params->activation_max),
  };
  opbridge_helium_s16_units(&job);
  return 4 * groups;
}

#endif /* OPBRIDGE_KERNELS_HELIUM */
