/* SPDX-License-Identifier: Apache-2.0 */
/* The folded int8 forms' assembly, DSP variant (Cortex-M4, Thumb-2; docs/kernels.md, "Variants"):
 * the hot loops opbridge_folded_s8.c's C calls through job structs (opbridge_folded_dsp_internal.h). */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_DSP

#include "cc/kernels/opbridge_folded_dsp_internal.h"

#if OPBRIDGE_DSP_ASSEMBLY
/* The hot loops of the DSP variant, in assembly: GCC 12 cannot keep four weight pointers, four
 * accumulators and the unpacked input in registers (it spills in the loop), and these loops are
 * most of a model's time on the Cortex-M4. Each function takes a job struct whose fields it reads
 * by offset (layouts checked at compile time) and ends every group of outputs in the same output
 * stage: TFLite's rescale for a right shift r >= 1 in one 64-bit sum, P = acc * multiplier +
 * 2^30 + c * 2^31 with c = 2^(r-1) - (1 if the doubling high multiply is negative), the result
 * P >> (31 + r): the same floors as the rounding doubling high multiply followed by the rounding
 * right shift (derivation in docs/kernels.md). */

/* Output stage: r0 multipliers, r1 shifts, r2 output, r3 output offset, r12/lr activation
 * min/max; r9:r10 the 64-bit sum, r11 the multiplier then r - 1, r8 c. */
#define OPBRIDGE_DSP_OUTPUT(acc, offset, clamp)                                                                   \
  "ldr r11, [r0, #" offset "*4]\n"                                                                               \
  "mov r9, #0x40000000\n"                                                                                        \
  "mov r10, #0\n"                                                                                                \
  "smlal r9, r10, " acc ", r11\n"                                                                                \
  "ldr r11, [r1, #" offset "*4]\n"                                                                               \
  "mvn r11, r11\n"                                                                                               \
  "mov r8, #1\n"                                                                                                 \
  "lsl r8, r8, r11\n"                                                                                            \
  "add r8, r8, r10, asr #31\n"                                                                                   \
  "adds r9, r9, r8, lsl #31\n"                                                                                   \
  "adc r10, r10, r8, asr #1\n"                                                                                   \
  "asr " acc ", r10, r11\n"                                                                                      \
  "add " acc ", " acc ", r3\n" clamp(acc) "strb " acc ", [r2, #" offset "]\n"
#define OPBRIDGE_DSP_FULL(acc) "ssat " acc ", #8, " acc "\n"
#define OPBRIDGE_DSP_CLAMPED(acc) OPBRIDGE_DSP_CLAMP(acc, "r12", "lr")
/* The short stage's rounding right shift (opbridge_dsp_pair_stage): acc = (acc + R - (acc < 0)) >> r,
 * plus the output offset; `sum` receives R - (acc < 0). */
#define OPBRIDGE_DSP_ROUNDING_SHIFT(acc, sum, round, shift, offset)                                               \
  "add " sum ", " round ", " acc ", asr #31\n"                                                                   \
  "add " acc ", " acc ", " sum "\n"                                                                              \
  "asr " acc ", " acc ", " shift "\n"                                                                            \
  "add " acc ", " acc ", " offset "\n"
/* r8 the job: four accumulators r4-r7 from the bias. */
#define OPBRIDGE_DSP_BIAS4                                                                                        \
  "ldr r9, [r8, #4]\n"                                                                                           \
  "ldm r9!, {r4-r7}\n"                                                                                           \
  "str r9, [r8, #4]\n"
/* r8 the job: the stage's registers for OPBRIDGE_DSP_OUTPUT. */
#define OPBRIDGE_DSP_LOAD_STAGE                                                                                   \
  "ldr r0, [r8, #8]\n"                                                                                           \
  "ldr r1, [r8, #12]\n"                                                                                          \
  "ldr r2, [r8, #20]\n"                                                                                          \
  "ldr r3, [r8, #24]\n"                                                                                          \
  "ldr r12, [r8, #28]\n"                                                                                         \
  "ldr lr, [r8, #32]\n"
/* r8 the job, r0-r2 the group's multipliers, shifts and outputs: on to the next group (label 1)
 * or out, `outputs` being the group's. */
#define OPBRIDGE_DSP_NEXT_GROUP(outputs)                                                                          \
  "ldr r9, [r8, #16]\n"                                                                                          \
  "add r0, r0, r9\n"                                                                                             \
  "add r1, r1, r9\n"                                                                                             \
  "str r0, [r8, #8]\n"                                                                                           \
  "str r1, [r8, #12]\n"                                                                                          \
  "add r2, r2, #" outputs "\n"                                                                                   \
  "str r2, [r8, #20]\n"                                                                                          \
  "ldr r9, [r8]\n"                                                                                               \
  "subs r9, r9, #1\n"                                                                                            \
  "str r9, [r8]\n"                                                                                               \
  "bne 1b\n"

/* Dot products: r0 input, r1/r12/r3/r2 the four units' weights, lr the row's end, r4-r7 the
 * accumulators, r8/r9 the input's even/odd bytes as int16 pairs, r10/r11 a unit's. */
#define OPBRIDGE_DSP_UNIT(weights, acc)                                                                           \
  "ldr r11, [" weights "], #4\n"                                                                                 \
  "sxtb16 r10, r11\n"                                                                                            \
  "sxtb16 r11, r11, ror #8\n"                                                                                    \
  "smlad " acc ", r10, r8, " acc "\n"                                                                            \
  "smlad " acc ", r11, r9, " acc "\n"
#define OPBRIDGE_DSP_STEP                                                                                         \
  "ldr r9, [r0], #4\n"                                                                                           \
  "sxtb16 r8, r9\n"                                                                                              \
  "sxtb16 r9, r9, ror #8\n" OPBRIDGE_DSP_UNIT("r1", "r4") OPBRIDGE_DSP_UNIT("r12", "r5")                         \
      OPBRIDGE_DSP_UNIT("r3", "r6") OPBRIDGE_DSP_UNIT("r2", "r7")

#define OPBRIDGE_DSP_WINDOW4(name, clamp)                                                                         \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(name)                                                                      \
          "push {r0, r4-r11, lr}\n" /* the job stays at [sp] */                                                  \
          "1:\n"                    /* a group: weights, accumulators from the bias */                           \
          "ldr r8, [sp]\n"                                                                                       \
          "ldr r1, [r8, #40]\n"                                                                                  \
          "ldr r2, [r8, #44]\n"                                                                                  \
          "add r12, r1, r2\n"                                                                                    \
          "add r3, r12, r2\n"                                                                                    \
          "add r2, r3, r2\n" OPBRIDGE_DSP_BIAS4                                                                  \
          "ldr r9, [r8, #52]\n"                                                                                  \
          "str r9, [r8, #60]\n"                                                                                  \
          "ldr r0, [r8, #36]\n"                                                                                  \
          "2:\n" /* a window row */                                                                              \
          "ldr r9, [r8, #48]\n"                                                                                  \
          "add lr, r0, r9\n"                                                                                     \
          "tst r9, #4\n" /* an odd number of words: enter at the second step */                                 \
          "bne 4f\n"                                                                                             \
          "3:\n" OPBRIDGE_DSP_STEP "4:\n" OPBRIDGE_DSP_STEP "cmp r0, lr\n"                                       \
          "bne 3b\n"                                                                                             \
          "ldr r8, [sp]\n"                                                                                       \
          "ldr r9, [r8, #60]\n"                                                                                  \
          "subs r9, r9, #1\n"                                                                                    \
          "beq 5f\n"                                                                                             \
          "str r9, [r8, #60]\n"                                                                                  \
          "ldr r9, [r8, #56]\n"                                                                                  \
          "add r0, r0, r9\n"                                                                                     \
          "b 2b\n"                                                                                               \
          "5:\n"               /* the group's outputs */                                                         \
          "str r2, [r8, #40]\n" /* the last unit's weights end where the next group's start */                  \
          OPBRIDGE_DSP_LOAD_STAGE OPBRIDGE_DSP_OUTPUT("r4", "0", clamp) OPBRIDGE_DSP_OUTPUT("r5", "1", clamp)    \
              OPBRIDGE_DSP_OUTPUT("r6", "2", clamp) OPBRIDGE_DSP_OUTPUT("r7", "3", clamp)                        \
          "ldr r8, [sp]\n" OPBRIDGE_DSP_NEXT_GROUP("4") "pop {r0, r4-r11, pc}\n" OPBRIDGE_ASM_FUNCTION_END(name))

/* A tap of four channels: r0 the tap table, r3 the channel's byte offset, r2 the widened weights,
 * r4-r7 the channels' accumulators; r8-r12 scratch. */
#define OPBRIDGE_DSP_DEPTHWISE_TAP                                                                                \
  "ldr r8, [r0], #4\n"                                                                                           \
  "ldr r9, [r8, r3]\n"                                                                                           \
  "ldrd r11, r12, [r2], #8\n"                                                                                    \
  "sxtb16 r10, r9, ror #8\n"                                                                                     \
  "sxtb16 r9, r9\n"                                                                                              \
  "smlabb r4, r9, r11, r4\n"                                                                                     \
  "smlatt r6, r9, r11, r6\n"                                                                                     \
  "smlabb r5, r10, r12, r5\n"                                                                                    \
  "smlatt r7, r10, r12, r7\n"
/* One channel's output from lr's next M, R and r (r8-r10), r1 the output offset, r0 the outputs:
 * SMMULR(acc, M) of the doubled sum (weights and bias doubled), then (x + R - (x < 0)) >> r
 * (opbridge_dsp_depthwise_stage). */
#define OPBRIDGE_DSP_DEPTHWISE_OUTPUT(acc, byte, clamp)                                                          \
  "ldm lr!, {r8-r10}\n"                                                                                          \
  "smmulr " acc ", " acc ", r8\n" OPBRIDGE_DSP_ROUNDING_SHIFT(acc, "r9", "r9", "r10", "r1") clamp(acc)           \
  "strb " acc ", [r0, #" byte "]\n"
#define OPBRIDGE_DSP_DEPTHWISE_NO_BOUNDS ""
#define OPBRIDGE_DSP_DEPTHWISE_BOUNDS "ldrd r11, r12, [r12, #24]\n"
/* The activation range in r11 (min) and r12 (max). */
#define OPBRIDGE_DSP_DEPTHWISE_CLAMPED(acc) OPBRIDGE_DSP_CLAMP(acc, "r11", "r12")

#define OPBRIDGE_DSP_DEPTHWISE4(name, bounds, clamp)                                                              \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(name)                                                                      \
          "push {r0, r4-r11, lr}\n" /* the job stays at [sp] */                                                  \
          "ldr r2, [r0, #8]\n"                                                                                   \
          "ldr lr, [r0, #12]\n"                                                                                  \
          "ldr r3, [r0, #40]\n"                                                                                  \
          "1:\n" /* a group of four channels: accumulators from the biases */                                   \
          "ldm lr!, {r4-r7}\n"                                                                                   \
          "ldr r12, [sp]\n"                                                                                      \
          "ldrd r0, r1, [r12]\n"                                                                                 \
          "ldr r8, [r12, #36]\n"                                                                                 \
          "cmp r8, #0\n" /* an odd number of taps: enter at the second */                                       \
          "bne 3f\n"                                                                                             \
          "2:\n" OPBRIDGE_DSP_DEPTHWISE_TAP "3:\n" OPBRIDGE_DSP_DEPTHWISE_TAP "cmp r0, r1\n"                     \
          "bne 2b\n"                                                                                             \
          "ldr r12, [sp]\n"                                                                                      \
          "ldrd r0, r1, [r12, #16]\n" bounds OPBRIDGE_DSP_DEPTHWISE_OUTPUT("r4", "0", clamp)                     \
              OPBRIDGE_DSP_DEPTHWISE_OUTPUT("r5", "1", clamp) OPBRIDGE_DSP_DEPTHWISE_OUTPUT("r6", "2", clamp)    \
                  OPBRIDGE_DSP_DEPTHWISE_OUTPUT("r7", "3", clamp)                                                \
          "ldr r12, [sp]\n"                                                                                      \
          "add r0, r0, #4\n"                                                                                     \
          "str r0, [r12, #16]\n"                                                                                 \
          "add r3, r3, #4\n"                                                                                     \
          "ldr r8, [r12, #32]\n"                                                                                 \
          "subs r8, r8, #1\n"                                                                                    \
          "str r8, [r12, #32]\n"                                                                                 \
          "bne 1b\n"                                                                                             \
          "pop {r0, r4-r11, pc}\n" OPBRIDGE_ASM_FUNCTION_END(name))

OPBRIDGE_DSP_DEPTHWISE4(opbridge_dsp_depthwise4_full, OPBRIDGE_DSP_DEPTHWISE_NO_BOUNDS, OPBRIDGE_DSP_FULL);
OPBRIDGE_DSP_DEPTHWISE4(opbridge_dsp_depthwise4_clamped, OPBRIDGE_DSP_DEPTHWISE_BOUNDS, OPBRIDGE_DSP_DEPTHWISE_CLAMPED);

/* Both widths of opbridge_dsp_pointwise, r9 the job: an odd number of output channels enters the
 * loop of two at its second (label 3); the loop back while units remain ([sp, #4] their end),
 * then r9 the job and r10 the output skip; after a position, on to the next (label 1). */
#define OPBRIDGE_DSP_POINTWISE_ODD_ENTRY                                                                          \
  "ldr r9, [r9, #32]\n"                                                                                          \
  "cmp r9, #0\n"                                                                                                 \
  "bne 3f\n"
#define OPBRIDGE_DSP_POINTWISE_UNITS_END                                                                          \
  "ldr r9, [sp, #4]\n"                                                                                           \
  "cmp lr, r9\n"                                                                                                 \
  "bne 2b\n"                                                                                                     \
  "ldr r9, [sp]\n"                                                                                               \
  "ldr r10, [r9, #28]\n"
#define OPBRIDGE_DSP_POINTWISE_NEXT_POSITION                                                                      \
  "ldr r10, [r9, #16]\n"                                                                                         \
  "subs r10, r10, #1\n"                                                                                          \
  "str r10, [r9, #16]\n"                                                                                         \
  "bne 1b\n"

/* opbridge_dsp_pointwise8_*: [sp] the job, [sp, #4] the units' end; r0-r3 the position's int16
 * pairs, r12 the outputs, lr the unit records; per unit r4-r7 its weight pairs, r8 its sum, r9-r11
 * its M, R + (offset << r) and r. */
#define OPBRIDGE_DSP_POINTWISE8_NO_BOUNDS ""
#define OPBRIDGE_DSP_POINTWISE8_BOUNDS                                                                            \
  "ldr r9, [sp]\n"                                                                                               \
  "ldrd r4, r5, [r9, #20]\n"
#define OPBRIDGE_DSP_POINTWISE8_CLAMPED(acc) OPBRIDGE_DSP_CLAMP(acc, "r4", "r5")
/* One output channel: its record's weight pairs and doubled bias, 4 SMLADs, its stage. */
#define OPBRIDGE_DSP_POINTWISE8_UNIT(bounds, clamp)                                                               \
  "ldm lr!, {r4-r8}\n"                                                                                           \
  "smlad r8, r0, r4, r8\n"                                                                                       \
  "smlad r8, r1, r5, r8\n"                                                                                       \
  "smlad r8, r2, r6, r8\n"                                                                                       \
  "smlad r8, r3, r7, r8\n"                                                                                       \
  "ldm lr!, {r9-r11}\n"                                                                                          \
  "smmulr r8, r8, r9\n"                                                                                          \
  "add r10, r10, r8, asr #31\n"                                                                                  \
  "add r8, r8, r10\n"                                                                                            \
  "asr r8, r8, r11\n" bounds clamp("r8") "strb r8, [r12], #1\n"
#define OPBRIDGE_DSP_POINTWISE8(kind, bounds, clamp)                                                              \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(opbridge_dsp_pointwise8_##kind)                                            \
          "ldr r1, [r0, #4]\n"                                                                                   \
          "push {r0, r1, r2, r4-r11, lr}\n"                                                                      \
          "ldr r12, [r0, #12]\n"                                                                                 \
          "1:\n" /* a position: its 8 bytes as int16 pairs [x0, x2], [x1, x3], [x4, x6], [x5, x7] */            \
          "ldr r9, [sp]\n"                                                                                       \
          "ldr r10, [r9, #8]\n"                                                                                  \
          "ldr r0, [r10], #4\n"                                                                                  \
          "ldr r2, [r10], #4\n"                                                                                  \
          "str r10, [r9, #8]\n"                                                                                  \
          "ldr lr, [r9]\n"                                                                                       \
          "sxtb16 r1, r0, ror #8\n"                                                                              \
          "sxtb16 r0, r0\n"                                                                                      \
          "sxtb16 r3, r2, ror #8\n"                                                                              \
          "sxtb16 r2, r2\n"                                                                                      \
          OPBRIDGE_DSP_POINTWISE_ODD_ENTRY                                                                       \
          "2:\n" OPBRIDGE_DSP_POINTWISE8_UNIT(bounds, clamp) "3:\n" OPBRIDGE_DSP_POINTWISE8_UNIT(bounds, clamp)    \
          OPBRIDGE_DSP_POINTWISE_UNITS_END "add r12, r12, r10\n"                                                  \
          OPBRIDGE_DSP_POINTWISE_NEXT_POSITION "pop {r0, r1, r2, r4-r11, pc}\n"                                   \
              OPBRIDGE_ASM_FUNCTION_END(opbridge_dsp_pointwise8_##kind))

OPBRIDGE_DSP_POINTWISE8(full, OPBRIDGE_DSP_POINTWISE8_NO_BOUNDS, OPBRIDGE_DSP_FULL);
OPBRIDGE_DSP_POINTWISE8(clamped, OPBRIDGE_DSP_POINTWISE8_BOUNDS, OPBRIDGE_DSP_POINTWISE8_CLAMPED);

/* opbridge_dsp_pointwise16_*: [sp] the job, [sp, #4] the units' end, [sp, #8] the outputs; r0-r7 the
 * position's int16 pairs, lr the unit records; per unit r8-r11 four weight pairs at a time, r12
 * its sum, then r8-r10 its M, R + (offset << r) and r. */
#define OPBRIDGE_DSP_POINTWISE16_NO_BOUNDS ""
#define OPBRIDGE_DSP_POINTWISE16_BOUNDS                                                                           \
  "ldr r8, [sp]\n"                                                                                               \
  "ldrd r9, r10, [r8, #20]\n"
#define OPBRIDGE_DSP_POINTWISE16_CLAMPED(acc) OPBRIDGE_DSP_CLAMP(acc, "r9", "r10")
/* One output channel: its record's weight pairs (doubled bias with the first four), 8 SMLADs, its stage. */
#define OPBRIDGE_DSP_POINTWISE16_UNIT(bounds, clamp)                                                              \
  "ldm lr!, {r8-r12}\n"                                                                                          \
  "smlad r12, r0, r8, r12\n"                                                                                     \
  "smlad r12, r1, r9, r12\n"                                                                                     \
  "smlad r12, r2, r10, r12\n"                                                                                    \
  "smlad r12, r3, r11, r12\n"                                                                                    \
  "ldm lr!, {r8-r11}\n"                                                                                          \
  "smlad r12, r4, r8, r12\n"                                                                                     \
  "smlad r12, r5, r9, r12\n"                                                                                     \
  "smlad r12, r6, r10, r12\n"                                                                                    \
  "smlad r12, r7, r11, r12\n"                                                                                    \
  "ldm lr!, {r8-r10}\n"                                                                                          \
  "smmulr r12, r12, r8\n"                                                                                        \
  "add r9, r9, r12, asr #31\n"                                                                                   \
  "add r12, r12, r9\n"                                                                                           \
  "asr r12, r12, r10\n" bounds clamp("r12")                                                                      \
  "ldr r11, [sp, #8]\n"                                                                                          \
  "strb r12, [r11], #1\n"                                                                                        \
  "str r11, [sp, #8]\n"
#define OPBRIDGE_DSP_POINTWISE16(kind, bounds, clamp)                                                             \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(opbridge_dsp_pointwise16_##kind)                                           \
          "ldr r1, [r0, #4]\n"                                                                                   \
          "ldr r2, [r0, #12]\n"                                                                                  \
          "push {r0, r1, r2, r4-r11, lr}\n"                                                                      \
          "1:\n" /* a position: its 16 bytes as int16 pairs, [x0, x2], [x1, x3], ... */                         \
          "ldr r9, [sp]\n"                                                                                       \
          "ldr r10, [r9, #8]\n"                                                                                  \
          "ldr r0, [r10], #4\n"                                                                                  \
          "ldr r2, [r10], #4\n"                                                                                  \
          "ldr r4, [r10], #4\n"                                                                                  \
          "ldr r6, [r10], #4\n"                                                                                  \
          "str r10, [r9, #8]\n"                                                                                  \
          "ldr lr, [r9]\n"                                                                                       \
          "sxtb16 r1, r0, ror #8\n"                                                                              \
          "sxtb16 r0, r0\n"                                                                                      \
          "sxtb16 r3, r2, ror #8\n"                                                                              \
          "sxtb16 r2, r2\n"                                                                                      \
          "sxtb16 r5, r4, ror #8\n"                                                                              \
          "sxtb16 r4, r4\n"                                                                                      \
          "sxtb16 r7, r6, ror #8\n"                                                                              \
          "sxtb16 r6, r6\n"                                                                                      \
          OPBRIDGE_DSP_POINTWISE_ODD_ENTRY                                                                       \
          "2:\n" OPBRIDGE_DSP_POINTWISE16_UNIT(bounds, clamp) "3:\n" OPBRIDGE_DSP_POINTWISE16_UNIT(bounds, clamp)  \
          OPBRIDGE_DSP_POINTWISE_UNITS_END "ldr r11, [sp, #8]\n"                                                  \
          "add r11, r11, r10\n"                                                                                  \
          "str r11, [sp, #8]\n"                                                                                  \
          OPBRIDGE_DSP_POINTWISE_NEXT_POSITION "pop {r0, r1, r2, r4-r11, pc}\n"                                   \
              OPBRIDGE_ASM_FUNCTION_END(opbridge_dsp_pointwise16_##kind))

OPBRIDGE_DSP_POINTWISE16(full, OPBRIDGE_DSP_POINTWISE16_NO_BOUNDS, OPBRIDGE_DSP_FULL);
OPBRIDGE_DSP_POINTWISE16(clamped, OPBRIDGE_DSP_POINTWISE16_BOUNDS, OPBRIDGE_DSP_POINTWISE16_CLAMPED);

/* The planes' multiply-accumulates (opbridge_dsp_plane_job): r10 the window row at the group's first
 * window, r9 the plane word just loaded, r4-r7 the four positions' sums, the row's weight pairs in
 * r0, r1, r3, r8 (pair j of the row in PLANE_W<j>; 2 to 4 pairs: filters 3 to 8 wide). Position
 * k's pair j lies 2 x stride x k + 4 j bytes into the row: each word is loaded once and multiplied
 * into every position it is a pair of. */
#define OPBRIDGE_DSP_PLANE_ACC0 "r4"
#define OPBRIDGE_DSP_PLANE_ACC1 "r5"
#define OPBRIDGE_DSP_PLANE_ACC2 "r6"
#define OPBRIDGE_DSP_PLANE_ACC3 "r7"
#define OPBRIDGE_DSP_PLANE_W0 "r0"
#define OPBRIDGE_DSP_PLANE_W1 "r1"
#define OPBRIDGE_DSP_PLANE_W2 "r3"
#define OPBRIDGE_DSP_PLANE_W3 "r8"
#define PLANE_LOAD(offset) "ldr r9, [r10, #" #offset "]\n"
#define PLANE_MAC(k, j)                                                                                           \
  "smlad " OPBRIDGE_DSP_PLANE_ACC##k ", r9, " OPBRIDGE_DSP_PLANE_W##j ", " OPBRIDGE_DSP_PLANE_ACC##k "\n"
/* Stride 1: position k's pair j at 2 (k + 2 j) bytes. */
#define OPBRIDGE_DSP_PLANE_S1_W2                                                                                  \
  PLANE_LOAD(0) PLANE_MAC(0, 0) PLANE_LOAD(2) PLANE_MAC(1, 0) PLANE_LOAD(4) PLANE_MAC(2, 0) PLANE_MAC(0, 1)       \
  PLANE_LOAD(6) PLANE_MAC(3, 0) PLANE_MAC(1, 1) PLANE_LOAD(8) PLANE_MAC(2, 1) PLANE_LOAD(10) PLANE_MAC(3, 1)
#define OPBRIDGE_DSP_PLANE_S1_W3                                                                                  \
  PLANE_LOAD(0) PLANE_MAC(0, 0) PLANE_LOAD(2) PLANE_MAC(1, 0) PLANE_LOAD(4) PLANE_MAC(2, 0) PLANE_MAC(0, 1)       \
  PLANE_LOAD(6) PLANE_MAC(3, 0) PLANE_MAC(1, 1) PLANE_LOAD(8) PLANE_MAC(2, 1) PLANE_MAC(0, 2) PLANE_LOAD(10)      \
  PLANE_MAC(3, 1) PLANE_MAC(1, 2) PLANE_LOAD(12) PLANE_MAC(2, 2) PLANE_LOAD(14) PLANE_MAC(3, 2)
#define OPBRIDGE_DSP_PLANE_S1_W4                                                                                  \
  PLANE_LOAD(0) PLANE_MAC(0, 0) PLANE_LOAD(2) PLANE_MAC(1, 0) PLANE_LOAD(4) PLANE_MAC(2, 0) PLANE_MAC(0, 1)       \
  PLANE_LOAD(6) PLANE_MAC(3, 0) PLANE_MAC(1, 1) PLANE_LOAD(8) PLANE_MAC(2, 1) PLANE_MAC(0, 2) PLANE_LOAD(10)      \
  PLANE_MAC(3, 1) PLANE_MAC(1, 2) PLANE_LOAD(12) PLANE_MAC(2, 2) PLANE_MAC(0, 3) PLANE_LOAD(14) PLANE_MAC(3, 2)   \
  PLANE_MAC(1, 3) PLANE_LOAD(16) PLANE_MAC(2, 3) PLANE_LOAD(18) PLANE_MAC(3, 3)
/* Stride 2: position k's pair j at 4 (k + j) bytes. */
#define OPBRIDGE_DSP_PLANE_S2_W2                                                                                  \
  PLANE_LOAD(0) PLANE_MAC(0, 0) PLANE_LOAD(4) PLANE_MAC(1, 0) PLANE_MAC(0, 1) PLANE_LOAD(8) PLANE_MAC(2, 0)       \
  PLANE_MAC(1, 1) PLANE_LOAD(12) PLANE_MAC(3, 0) PLANE_MAC(2, 1) PLANE_LOAD(16) PLANE_MAC(3, 1)
#define OPBRIDGE_DSP_PLANE_S2_W3                                                                                  \
  PLANE_LOAD(0) PLANE_MAC(0, 0) PLANE_LOAD(4) PLANE_MAC(1, 0) PLANE_MAC(0, 1) PLANE_LOAD(8) PLANE_MAC(2, 0)       \
  PLANE_MAC(1, 1) PLANE_MAC(0, 2) PLANE_LOAD(12) PLANE_MAC(3, 0) PLANE_MAC(2, 1) PLANE_MAC(1, 2) PLANE_LOAD(16)   \
  PLANE_MAC(3, 1) PLANE_MAC(2, 2) PLANE_LOAD(20) PLANE_MAC(3, 2)
#define OPBRIDGE_DSP_PLANE_S2_W4                                                                                  \
  PLANE_LOAD(0) PLANE_MAC(0, 0) PLANE_LOAD(4) PLANE_MAC(1, 0) PLANE_MAC(0, 1) PLANE_LOAD(8) PLANE_MAC(2, 0)       \
  PLANE_MAC(1, 1) PLANE_MAC(0, 2) PLANE_LOAD(12) PLANE_MAC(3, 0) PLANE_MAC(2, 1) PLANE_MAC(1, 2) PLANE_MAC(0, 3)  \
  PLANE_LOAD(16) PLANE_MAC(3, 1) PLANE_MAC(2, 2) PLANE_MAC(1, 3) PLANE_LOAD(20) PLANE_MAC(3, 2) PLANE_MAC(2, 3)   \
  PLANE_LOAD(24) PLANE_MAC(3, 3)
/* A window row's weight pairs into r0, r1, r3, r8 (r11 the weights). */
#define OPBRIDGE_DSP_PLANE_WEIGHTS_W2 "ldm r11!, {r0, r1}\n"
#define OPBRIDGE_DSP_PLANE_WEIGHTS_W3 "ldm r11!, {r0, r1, r3}\n"
#define OPBRIDGE_DSP_PLANE_WEIGHTS_W4 "ldm r11!, {r0, r1, r3, r8}\n"
/* The activation range in r0 (min) and r1 (max), loaded once the multiplier is no longer needed. */
#define OPBRIDGE_DSP_PLANE_NO_BOUNDS ""
#define OPBRIDGE_DSP_PLANE_BOUNDS "ldrd r0, r1, [r12, #40]\n"
#define OPBRIDGE_DSP_PLANE_CLAMPED(acc) OPBRIDGE_DSP_CLAMP(acc, "r0", "r1")
/* One position's output from r8 R, r9 r, r10 the output offset; r3 scratch. */
#define OPBRIDGE_DSP_PLANE_OUTPUT(acc, clamp) OPBRIDGE_DSP_ROUNDING_SHIFT(acc, "r3", "r8", "r9", "r10") clamp(acc)

/* [sp] the job; lr the group's column, r2 the rows' end. */
#define OPBRIDGE_DSP_PLANE(stride, words, kind, bounds, clamp)                                                    \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(opbridge_dsp_plane_s##stride##_w##words##_##kind)                          \
          "push {r0, r4-r11, lr}\n"                                                                              \
          "ldr lr, [r0, #48]\n"                                                                                  \
          "1:\n" /* a group of four positions: sums from the doubled bias */                                    \
          "ldr r12, [sp]\n"                                                                                      \
          "ldr r4, [r12, #20]\n"                                                                                 \
          "mov r5, r4\n"                                                                                         \
          "mov r6, r4\n"                                                                                         \
          "mov r7, r4\n"                                                                                         \
          "ldr r11, [r12, #8]\n"                                                                                 \
          "ldrd r12, r2, [r12]\n"                                                                                \
          "2:\n" /* a window row */                                                                              \
          "ldr r10, [r12], #4\n"                                                                                 \
          "add r10, r10, lr\n" OPBRIDGE_DSP_PLANE_WEIGHTS_W##words OPBRIDGE_DSP_PLANE_S##stride##_W##words       \
          "cmp r12, r2\n"                                                                                        \
          "bne 2b\n"                                                                                             \
          "ldr r12, [sp]\n"                                                                                      \
          "ldr r0, [r12, #24]\n"                                                                                 \
          "smmulr r4, r4, r0\n"                                                                                  \
          "smmulr r5, r5, r0\n"                                                                                  \
          "smmulr r6, r6, r0\n"                                                                                  \
          "smmulr r7, r7, r0\n"                                                                                  \
          "ldrd r8, r9, [r12, #28]\n"                                                                            \
          "ldr r10, [r12, #36]\n" bounds OPBRIDGE_DSP_PLANE_OUTPUT("r4", clamp)                                  \
              OPBRIDGE_DSP_PLANE_OUTPUT("r5", clamp) OPBRIDGE_DSP_PLANE_OUTPUT("r6", clamp)                      \
                  OPBRIDGE_DSP_PLANE_OUTPUT("r7", clamp)                                                         \
          "ldrd r11, r2, [r12, #12]\n" /* the outputs, a position apart */                                      \
          "strb r4, [r11]\n"                                                                                     \
          "strb r5, [r11, r2]\n"                                                                                 \
          "add r11, r11, r2, lsl #1\n"                                                                           \
          "strb r6, [r11]\n"                                                                                     \
          "strb r7, [r11, r2]\n"                                                                                 \
          "add r11, r11, r2, lsl #1\n"                                                                           \
          "str r11, [r12, #12]\n"                                                                                \
          "add lr, lr, #(8 * " #stride ")\n" /* four windows on */                                              \
          "ldr r0, [r12, #52]\n"                                                                                 \
          "cmp lr, r0\n"                                                                                         \
          "bne 1b\n"                                                                                             \
          "pop {r0, r4-r11, pc}\n" OPBRIDGE_ASM_FUNCTION_END(opbridge_dsp_plane_s##stride##_w##words##_##kind))

#define OPBRIDGE_DSP_PLANE_BOTH(stride, words)                                                                    \
  OPBRIDGE_DSP_PLANE(stride, words, full, OPBRIDGE_DSP_PLANE_NO_BOUNDS, OPBRIDGE_DSP_FULL);                      \
  OPBRIDGE_DSP_PLANE(stride, words, clamped, OPBRIDGE_DSP_PLANE_BOUNDS, OPBRIDGE_DSP_PLANE_CLAMPED)
OPBRIDGE_DSP_PLANE_BOTH(1, 2);
OPBRIDGE_DSP_PLANE_BOTH(1, 3);
OPBRIDGE_DSP_PLANE_BOTH(1, 4);
OPBRIDGE_DSP_PLANE_BOTH(2, 2);
OPBRIDGE_DSP_PLANE_BOTH(2, 3);
OPBRIDGE_DSP_PLANE_BOTH(2, 4);
#undef PLANE_LOAD
#undef PLANE_MAC

/* r0 the windows, r1/r2 the two units' weights, lr the end, r4/r5 window 0's accumulators and
 * r6/r7 window 1's, r8-r11 the windows' int16 pairs, r3/r12 a unit's. */
#define OPBRIDGE_DSP_PAIR_UNIT(weights, acc0, acc1)                                                               \
  "ldr r12, [" weights "], #4\n"                                                                                 \
  "sxtb16 r3, r12\n"                                                                                             \
  "sxtb16 r12, r12, ror #8\n"                                                                                    \
  "smlad " acc0 ", r3, r8, " acc0 "\n"                                                                           \
  "smlad " acc0 ", r12, r9, " acc0 "\n"                                                                          \
  "smlad " acc1 ", r3, r10, " acc1 "\n"                                                                          \
  "smlad " acc1 ", r12, r11, " acc1 "\n"
#define OPBRIDGE_DSP_PAIR_STEP                                                                                    \
  "ldm r0!, {r8-r11}\n" OPBRIDGE_DSP_PAIR_UNIT("r1", "r4", "r6") OPBRIDGE_DSP_PAIR_UNIT("r2", "r5", "r7")

/* One unit's two outputs (window 0's acc0 to [r14 + byte], window 1's acc1 to [r12 + byte]) from
 * r0-r2 its M, R and r (opbridge_dsp_pair_stage), r11 the output offset; `bounds` loads what
 * `clamp` needs into r0 and r10 once M is no longer needed; r9 scratch. */
#define OPBRIDGE_DSP_PAIR_OUTPUT(acc, out, byte, clamp)                                                          \
  OPBRIDGE_DSP_ROUNDING_SHIFT(acc, "r9", "r1", "r2", "r11") clamp(acc) "strb " acc ", [" out ", #" byte "]\n"
#define OPBRIDGE_DSP_PAIR_UNIT_STAGE(acc0, acc1, byte, bounds, clamp)                                            \
  "ldm r3!, {r0-r2}\n"                                                                                           \
  "lsl " acc0 ", " acc0 ", #1\n"                                                                                 \
  "smmulr " acc0 ", " acc0 ", r0\n"                                                                              \
  "lsl " acc1 ", " acc1 ", #1\n"                                                                                 \
  "smmulr " acc1 ", " acc1 ", r0\n" bounds OPBRIDGE_DSP_PAIR_OUTPUT(acc0, "lr", byte, clamp)                     \
      OPBRIDGE_DSP_PAIR_OUTPUT(acc1, "r12", byte, clamp)
#define OPBRIDGE_DSP_PAIR_NO_BOUNDS ""
#define OPBRIDGE_DSP_PAIR_BOUNDS "ldrd r0, r10, [r8, #32]\n"
/* The activation range in r0 (min) and r10 (max). */
#define OPBRIDGE_DSP_PAIR_CLAMPED(acc) OPBRIDGE_DSP_CLAMP(acc, "r0", "r10")

#define OPBRIDGE_DSP_PAIR2(name, bounds, clamp)                                                                   \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(name)                                                                      \
          "push {r0, r4-r11, lr}\n" /* the job stays at [sp] */                                                  \
          "1:\n"                    /* a pair of units: weights, accumulators from the biases */                 \
          "ldr r8, [sp]\n"                                                                                       \
          "ldr r3, [r8]\n"                                                                                       \
          "ldrd r4, r5, [r3]\n"                                                                                  \
          "mov r6, r4\n"                                                                                         \
          "mov r7, r5\n"                                                                                         \
          "ldrd r1, r2, [r8, #4]\n"                                                                              \
          "add r2, r1, r2\n"                                                                                     \
          "ldrd r0, r3, [r8, #12]\n"                                                                             \
          "add lr, r0, r3, lsl #4\n"                                                                             \
          "tst r3, #1\n" /* an odd number of words: enter at the second step */                                 \
          "bne 3f\n"                                                                                             \
          "2:\n" OPBRIDGE_DSP_PAIR_STEP "3:\n" OPBRIDGE_DSP_PAIR_STEP "cmp r0, lr\n"                             \
          "bne 2b\n"                                                                                             \
          "ldr r8, [sp]\n"                                                                                       \
          "str r2, [r8, #4]\n" /* the second unit's weights end where the next pair's start */                  \
          "ldr r3, [r8]\n"                                                                                       \
          "add r3, r3, #8\n"                                                                                     \
          "ldrd lr, r12, [r8, #20]\n"                                                                            \
          "ldr r11, [r8, #28]\n" OPBRIDGE_DSP_PAIR_UNIT_STAGE("r4", "r6", "0", bounds, clamp)                    \
              OPBRIDGE_DSP_PAIR_UNIT_STAGE("r5", "r7", "1", bounds, clamp)                                       \
          "str r3, [r8]\n"                                                                                       \
          "add lr, lr, #2\n"                                                                                     \
          "add r12, r12, #2\n"                                                                                   \
          "strd lr, r12, [r8, #20]\n"                                                                            \
          "ldr r9, [r8, #40]\n"                                                                                  \
          "subs r9, r9, #1\n"                                                                                    \
          "str r9, [r8, #40]\n"                                                                                  \
          "bne 1b\n"                                                                                             \
          "pop {r0, r4-r11, pc}\n" OPBRIDGE_ASM_FUNCTION_END(name))

OPBRIDGE_DSP_PAIR2(opbridge_dsp_pair2_full, OPBRIDGE_DSP_PAIR_NO_BOUNDS, OPBRIDGE_DSP_FULL);
OPBRIDGE_DSP_PAIR2(opbridge_dsp_pair2_clamped, OPBRIDGE_DSP_PAIR_BOUNDS, OPBRIDGE_DSP_PAIR_CLAMPED);
OPBRIDGE_DSP_WINDOW4(opbridge_dsp_window4_full, OPBRIDGE_DSP_FULL);
OPBRIDGE_DSP_WINDOW4(opbridge_dsp_window4_clamped, OPBRIDGE_DSP_CLAMPED);

/* One unit's 8 inputs: r0's Q, R words in r8-r11, its filter words through `weights`, r6/r7/r3
 * scratch (opbridge_dsp_fc_pairs_job). */
#define OPBRIDGE_DSP_FC_UNIT(weights, acc)                                                                        \
  "ldrd r6, r7, [" weights "], #8\n"                                                                             \
  "sxtb16 r3, r6\n"                                                                                              \
  "smlad " acc ", r6, r8, " acc "\n"                                                                             \
  "smlad " acc ", r3, r9, " acc "\n"                                                                             \
  "sxtb16 r3, r7\n"                                                                                              \
  "smlad " acc ", r7, r10, " acc "\n"                                                                            \
  "smlad " acc ", r3, r11, " acc "\n"
#define OPBRIDGE_DSP_FC_STEP "ldm r0!, {r8-r11}\n" OPBRIDGE_DSP_FC_UNIT("r1", "r4") OPBRIDGE_DSP_FC_UNIT("r2", "r5")
/* One unit's output from its bias in `bias`, r3's M, R and r (r8, r9, lr; r3 then advances by
 * the job's constants_step), r1 the output offset, r0 the outputs, r12 the job. */
#define OPBRIDGE_DSP_FC_OUTPUT(acc, bias, byte, clamp)                                                            \
  "ldm r3, {r8, r9, lr}\n"                                                                                       \
  "add " acc ", " bias ", " acc ", asr #8\n"                                                                     \
  "lsl " acc ", " acc ", #1\n"                                                                                   \
  "smmulr " acc ", " acc ", r8\n" OPBRIDGE_DSP_ROUNDING_SHIFT(acc, "r9", "r9", "lr", "r1") clamp(acc)            \
  "strb " acc ", [r0, #" byte "]\n"                                                                              \
  "ldr lr, [r12, #48]\n"                                                                                         \
  "add r3, r3, lr\n"
#define OPBRIDGE_DSP_FC_BOUNDS "ldrd r10, r11, [r12, #28]\n"
/* The activation range in r10 (min) and r11 (max). */
#define OPBRIDGE_DSP_FC_CLAMPED(acc) OPBRIDGE_DSP_CLAMP(acc, "r10", "r11")

#define OPBRIDGE_DSP_FC_PAIRS(name, bounds, clamp)                                                                \
  __asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(name)                                                                      \
          "push {r0, r4-r11, lr}\n" /* the job stays at [sp] */                                                  \
          "1:\n"                    /* a pair of units */                                                        \
          "ldr r12, [sp]\n"                                                                                      \
          "ldrd r0, lr, [r12]\n"                                                                                 \
          "add lr, r0, lr\n"                                                                                     \
          "ldrd r1, r2, [r12, #8]\n"                                                                             \
          "add r2, r1, r2\n"                                                                                     \
          "mov r4, #0\n"                                                                                         \
          "mov r5, #0\n"                                                                                         \
          "ldr r8, [r12, #40]\n"                                                                                 \
          "cmp r8, #0\n" /* an odd number of 8-byte steps: enter at the second */                               \
          "bne 3f\n"                                                                                             \
          "2:\n" OPBRIDGE_DSP_FC_STEP "3:\n" OPBRIDGE_DSP_FC_STEP "cmp r0, lr\n"                                 \
          "bne 2b\n"                                                                                             \
          "ldr r12, [sp]\n"                                                                                      \
          "str r2, [r12, #8]\n" /* the second unit's filter ends where the next pair's starts */                \
          "ldr r3, [r12, #16]\n"                                                                                 \
          "ldrd r6, r7, [r3], #8\n"                                                                              \
          "str r3, [r12, #16]\n"                                                                                 \
          "ldr r3, [r12, #44]\n"                                                                                 \
          "ldrd r0, r1, [r12, #20]\n" bounds OPBRIDGE_DSP_FC_OUTPUT("r4", "r6", "0", clamp)                      \
              OPBRIDGE_DSP_FC_OUTPUT("r5", "r7", "1", clamp)                                                     \
          "str r3, [r12, #44]\n"                                                                                 \
          "add r0, r0, #2\n"                                                                                     \
          "str r0, [r12, #20]\n"                                                                                 \
          "ldr r8, [r12, #36]\n"                                                                                 \
          "subs r8, r8, #1\n"                                                                                    \
          "str r8, [r12, #36]\n"                                                                                 \
          "bne 1b\n"                                                                                             \
          "pop {r0, r4-r11, pc}\n" OPBRIDGE_ASM_FUNCTION_END(name))

OPBRIDGE_DSP_FC_PAIRS(opbridge_dsp_fc_pairs_full, "", OPBRIDGE_DSP_FULL);
OPBRIDGE_DSP_FC_PAIRS(opbridge_dsp_fc_pairs_clamped, OPBRIDGE_DSP_FC_BOUNDS, OPBRIDGE_DSP_FC_CLAMPED);

/* r1/r2 the inputs, r3 the output, r12 the count, r4/r5 the tables, r6 the multiplier, r7 r - 1,
 * r8 the output offset, lr 2^(r-1); r9-r11 and r0 the element's sum, 64-bit sum and c. */
__asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(opbridge_dsp_add_full)
        "push {r4-r11, lr}\n"
        "ldm r0, {r1-r3, r12}\n"
        "ldr r4, [r0, #16]\n"
        "ldr r5, [r0, #20]\n"
        "ldr r6, [r0, #24]\n"
        "ldr r7, [r0, #28]\n"
        "ldr r8, [r0, #32]\n"
        "mov lr, #1\n"
        "lsl lr, lr, r7\n"
        "1:\n"
        "ldrsb r9, [r1], #1\n"
        "ldrsb r10, [r2], #1\n"
        "ldr r9, [r4, r9, lsl #2]\n"
        "ldr r10, [r5, r10, lsl #2]\n"
        "add r9, r9, r10\n"
        "mov r10, #0x40000000\n"
        "mov r11, #0\n"
        "smlal r10, r11, r9, r6\n"
        "add r0, lr, r11, asr #31\n"
        "adds r10, r10, r0, lsl #31\n"
        "adc r11, r11, r0, asr #1\n"
        "asr r9, r11, r7\n"
        "add r9, r9, r8\n"
        "ssat r9, #8, r9\n"
        "strb r9, [r3], #1\n"
        "subs r12, r12, #1\n"
        "bne 1b\n"
        "pop {r4-r11, pc}\n" OPBRIDGE_ASM_FUNCTION_END(opbridge_dsp_add_full));
#endif /* OPBRIDGE_DSP_ASSEMBLY */

#endif /* OPBRIDGE_KERNELS_DSP */
