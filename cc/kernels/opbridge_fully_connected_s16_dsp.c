/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED with int16 activations and int8 weights, DSP variant for the Cortex-M4: what
 * opbridge_fully_connected_s16.c calls, two int16 x int16 products per SMLAD or SMLALD: the
 * int64-bias kernel's units in pairs in assembly, output stage included, and the dot products of
 * the int32-bias kernel and of the units left over. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_DSP

#include <arm_acle.h>
#include <string.h>

#include "cc/kernels/opbridge_folded_dsp_internal.h"
#include "cc/kernels/opbridge_fully_connected_s16_internal.h"

/* Four weights as two pairs of int16 (SXTB16: bytes 0 and 2, then 1 and 3), and four inputs paired
 * to match (PKHBT, PKHTB): (x0, x2) and (x1, x3). */
typedef struct {
  int32_t inputs_even;
  int32_t inputs_odd;
  int32_t weights_even;
  int32_t weights_odd;
} opbridge_pairs4;

static inline opbridge_pairs4 opbridge_load_pairs4(const int16_t *input, const int8_t *weights) {
  uint32_t x01;
  uint32_t x23;
  uint32_t w;
  memcpy(&x01, input, sizeof x01);
  memcpy(&x23, input + 2, sizeof x23);
  memcpy(&w, weights, sizeof w);
  const opbridge_pairs4 pairs = {
      (int32_t)((x01 & 0xFFFFu) | (x23 << 16)),
      (int32_t)((x01 >> 16) | (x23 & 0xFFFF0000u)),
      (int32_t)__sxtb16(w),
      (int32_t)__sxtb16((w >> 8) | (w << 24)), /* rotated right by 8: bytes 1 and 3 */
  };
  return pairs;
}

/* Each product fits 32 bits; SMLALD adds two of them into a 64-bit sum exactly. */
int64_t opbridge_dot_s16_s8_dsp(const int16_t *input, const int8_t *weights, int32_t depth) {
  int64_t sum = 0;
  int32_t d = 0;
  for (; d + 4 <= depth; d += 4) {
    const opbridge_pairs4 pairs = opbridge_load_pairs4(input + d, weights + d);
    sum = __smlald(pairs.inputs_even, pairs.weights_even, sum);
    sum = __smlald(pairs.inputs_odd, pairs.weights_odd, sum);
  }
  for (; d < depth; ++d) {
    sum += (int32_t)input[d] * (int32_t)weights[d];
  }
  return sum;
}

/* SMLAD's sum wraps modulo 2^32 (it only sets the Q flag): the wrapping int32 accumulator. */
uint32_t opbridge_dot_s16_s8_wrapping_dsp(const int16_t *input, const int8_t *weights, int32_t depth) {
  uint32_t sum = 0;
  int32_t d = 0;
  for (; d + 4 <= depth; d += 4) {
    const opbridge_pairs4 pairs = opbridge_load_pairs4(input + d, weights + d);
    sum = (uint32_t)__smlad(pairs.inputs_even, pairs.weights_even, (int32_t)sum);
    sum = (uint32_t)__smlad(pairs.inputs_odd, pairs.weights_odd, (int32_t)sum);
  }
  for (; d < depth; ++d) {
    sum += (uint32_t)((int32_t)input[d] * (int32_t)weights[d]);
  }
  return sum;
}

/* Bytes 1 and 3 of a word, sign-extended to an int16 pair (SXTB16 with its rotation). */
static inline int32_t opbridge_odd_weights(uint32_t word) {
  int32_t pair;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(pair) : "r"(word));
  return pair;
}

void opbridge_pair_s16_dsp(const int16_t *input, int32_t depth, int32_t *pairs) {
  for (int32_t d = 0; d + 4 <= depth; d += 4, pairs += 2) {
    uint32_t x01;
    uint32_t x23;
    memcpy(&x01, input + d, sizeof x01);
    memcpy(&x23, input + d + 2, sizeof x23);
    pairs[0] = (int32_t)((x01 & 0xFFFFu) | (x23 << 16));
    pairs[1] = (int32_t)((x01 >> 16) | (x23 & 0xFFFF0000u));
  }
}

/* Two products into each kind of sum: 64 bits exactly (SMLALD), or modulo 2^32 (SMLAD). */
static inline int64_t opbridge_mac_wide(int32_t pair, int32_t weights, int64_t sum) {
  return __smlald(pair, weights, sum);
}
static inline uint32_t opbridge_mac_wrapping(int32_t pair, int32_t weights, uint32_t sum) {
  return (uint32_t)__smlad(pair, weights, (int32_t)sum);
}

/* opbridge_dot2_s16_s8_dsp and its wrapping twin: SUM_T their sums, MAC their multiply-accumulate. */
#define OPBRIDGE_DOT2_S16_S8(name, SUM_T, MAC)                                                                   \
  void name(const int32_t *pairs, const int16_t *input, const int8_t *weights0, const int8_t *weights1,          \
            int32_t depth, SUM_T sums[2]) {                                                                      \
    SUM_T sum0 = 0;                                                                                              \
    SUM_T sum1 = 0;                                                                                              \
    int32_t d = 0;                                                                                               \
    for (; d + 4 <= depth; d += 4, pairs += 2) {                                                                 \
      uint32_t w0;                                                                                               \
      uint32_t w1;                                                                                               \
      memcpy(&w0, weights0 + d, sizeof w0);                                                                      \
      memcpy(&w1, weights1 + d, sizeof w1);                                                                      \
      sum0 = MAC(pairs[0], (int32_t)__sxtb16(w0), sum0);                                                         \
      sum0 = MAC(pairs[1], opbridge_odd_weights(w0), sum0);                                                      \
      sum1 = MAC(pairs[0], (int32_t)__sxtb16(w1), sum1);                                                         \
      sum1 = MAC(pairs[1], opbridge_odd_weights(w1), sum1);                                                      \
    }                                                                                                            \
    for (; d < depth; ++d) {                                                                                     \
      sum0 += (SUM_T)((int32_t)input[d] * (int32_t)weights0[d]);                                                 \
      sum1 += (SUM_T)((int32_t)input[d] * (int32_t)weights1[d]);                                                 \
    }                                                                                                            \
    sums[0] = sum0;                                                                                              \
    sums[1] = sum1;                                                                                              \
  }

OPBRIDGE_DOT2_S16_S8(opbridge_dot2_s16_s8_dsp, int64_t, opbridge_mac_wide)
OPBRIDGE_DOT2_S16_S8(opbridge_dot2_s16_s8_wrapping_dsp, uint32_t, opbridge_mac_wrapping)


#if OPBRIDGE_DSP_ASSEMBLY
/* What opbridge_dsp_s16_units reads, and moves from pair to pair of units (weights, starts,
 * multipliers, shifts, destination, pairs left). */
typedef struct {
  const int32_t *row;         /* 0: the row paired by opbridge_pair_s16_dsp */
  int32_t steps;              /* 4: whole steps of 8 values, > 0 */
  const int8_t *weights;      /* 8: the pair's first weight row */
  int32_t depth;              /* 12: bytes of a weight row */
  const int64_t *starts;      /* 16: each unit's sum before the steps (bias and the depth's last values) */
  const int32_t *multipliers; /* 20 */
  const int32_t *shifts;      /* 24 */
  int32_t channel_step;       /* 28: bytes to the next unit's multiplier and shift (0: shared) */
  int32_t offset;             /* 32: output offset */
  int32_t minimum;            /* 36 */
  int32_t maximum;            /* 40 */
  int16_t *destination;       /* 44 */
  int32_t pairs;              /* 48: pairs of units left, > 0 */
} opbridge_dsp_s16_job;

typedef char opbridge_dsp_s16_job_layout[(sizeof(void *) == 4 && offsetof(opbridge_dsp_s16_job, depth) == 12 &&
                                          offsetof(opbridge_dsp_s16_job, pairs) == 48)
                                             ? 1
                                             : -1];

void opbridge_dsp_s16_units(opbridge_dsp_s16_job *job);

/* One unit's 8 values of a step: its two weight words widened by SXTB16 into the pairs the row's
 * four words (r2-r5) hold, each pair of products one SMLAD into acc. */
#define OPBRIDGE_DSP_S16_UNIT_STEP(acc, weights)                                                                    \
  "ldr r6, [" weights "], #4\n"                                                                                   \
  "sxtb16 r7, r6\n"                                                                                               \
  "smlad " acc ", r2, r7, " acc "\n"                                                                              \
  "sxtb16 r7, r6, ror #8\n"                                                                                       \
  "smlad " acc ", r3, r7, " acc "\n"                                                                              \
  "ldr r6, [" weights "], #4\n"                                                                                   \
  "sxtb16 r7, r6\n"                                                                                               \
  "smlad " acc ", r4, r7, " acc "\n"                                                                              \
  "sxtb16 r7, r6, ror #8\n"                                                                                       \
  "smlad " acc ", r5, r7, " acc "\n"

/* A run's int32 sum (sign-extended) added into the 64-bit sum at [sp, #offset]. */
#define OPBRIDGE_DSP_S16_WIDEN(acc, offset)                                                                         \
  "ldrd r2, r3, [sp, #" offset "]\n"                                                                              \
  "adds r2, r2, " acc "\n"                                                                                        \
  "adc r3, r3, " acc ", asr #31\n"                                                                                \
  "strd r2, r3, [sp, #" offset "]\n"

/* One unit's output from its 64-bit sum at [sp, #offset]: TFLite's 64-bit rescale
 * (opbridge_rescale_s64): the multiplier at [r2] rounded to 16 bits (USAT: at most 0x7FFF), the
 * product by UMULL and MLA, then its rounding right shift by n = 15 - shift (8 to 46 bits), low
 * word kept: 2^(n-1) added and the two words shifted when n < 32, else the high word alone
 * (2^31 carried into it when n is 32). Then the offset (r9), the activation range (r10, r12), an
 * int16 store (lr). r2 and r3 step by r6 to the next unit's multiplier and shift. */
#define OPBRIDGE_DSP_S16_STAGE(offset)                                                                              \
  "ldrd r0, r1, [sp, #" offset "]\n"                                                                              \
  "ldr r4, [r2]\n"                                                                                                \
  "ldr r5, [r3]\n"                                                                                                \
  "add r2, r2, r6\n"                                                                                              \
  "add r3, r3, r6\n"                                                                                              \
  "add r4, r4, #32768\n"                                                                                          \
  "lsr r4, r4, #16\n"                                                                                             \
  "usat r4, #15, r4\n"                                                                                            \
  "rsb r5, r5, #15\n"                                                                                             \
  "umull r0, r7, r0, r4\n"                                                                                        \
  "mla r1, r1, r4, r7\n"                                                                                          \
  "subs r7, r5, #32\n"                                                                                            \
  "bge 6f\n"                                                                                                      \
  "sub r7, r5, #1\n"                                                                                              \
  "movs r8, #1\n"                                                                                                 \
  "lsl r8, r8, r7\n"                                                                                              \
  "adds r0, r0, r8\n"                                                                                             \
  "adc r1, r1, #0\n"                                                                                              \
  "lsr r0, r0, r5\n"                                                                                              \
  "rsb r7, r5, #32\n"                                                                                             \
  "lsl r1, r1, r7\n"                                                                                              \
  "orr r0, r0, r1\n"                                                                                              \
  "b 8f\n"                                                                                                        \
  "6: bne 7f\n"                                                                                                   \
  "adds r0, r0, #0x80000000\n"                                                                                    \
  "adc r0, r1, #0\n"                                                                                              \
  "b 8f\n"                                                                                                        \
  "7: sub r8, r5, #33\n"                                                                                          \
  "movs r0, #1\n"                                                                                                 \
  "lsl r0, r0, r8\n"                                                                                              \
  "add r1, r1, r0\n"                                                                                              \
  "asr r0, r1, r7\n"                                                                                              \
  "8: add r0, r0, r9\n" OPBRIDGE_DSP_CLAMP("r0", "r10", "r12") "strh r0, [lr], #2\n"

/* Every pair of units: the row's steps in runs of at most 32 (256 products, each within 2^22 in
 * magnitude, so a run's int32 sum is exact), 23 instructions a step for both units (the row's
 * four words loaded once for them), each run widened into the 64-bit sums on the stack, which
 * start from the job's starts; then each unit's output stage. r11 the job. */
__asm__(OPBRIDGE_ASM_FUNCTION_BEGIN(opbridge_dsp_s16_units)
        "push {r4-r11, lr}\n"
        "sub sp, sp, #16\n"
        "mov r11, r0\n"
        "1:\n"
        "ldr r8, [r11, #8]\n"
        "ldr r0, [r11, #12]\n"
        "add r9, r8, r0\n"
        "add r1, r9, r0\n"
        "str r1, [r11, #8]\n"
        "ldr r2, [r11, #16]\n"
        "ldrd r4, r5, [r2]\n"
        "ldrd r6, r7, [r2, #8]\n"
        "add r2, r2, #16\n"
        "str r2, [r11, #16]\n"
        "strd r4, r5, [sp]\n"
        "strd r6, r7, [sp, #8]\n"
        "ldr r12, [r11, #0]\n"
        "ldr r10, [r11, #4]\n"
        "2:\n"
        "cmp r10, #32\n"
        "ite gt\n"
        "movgt lr, #32\n"
        "movle lr, r10\n"
        "sub r10, r10, lr\n"
        "movs r0, #0\n"
        "movs r1, #0\n"
        "3:\n"
        "ldm r12!, {r2-r5}\n" OPBRIDGE_DSP_S16_UNIT_STEP("r0", "r8") OPBRIDGE_DSP_S16_UNIT_STEP("r1", "r9")
        "subs lr, lr, #1\n"
        "bne 3b\n" OPBRIDGE_DSP_S16_WIDEN("r0", "0") OPBRIDGE_DSP_S16_WIDEN("r1", "8")
        "cmp r10, #0\n"
        "bne 2b\n"
        "ldr r2, [r11, #20]\n"
        "ldr r3, [r11, #24]\n"
        "ldr r6, [r11, #28]\n"
        "ldr r9, [r11, #32]\n"
        "ldr r10, [r11, #36]\n"
        "ldr r12, [r11, #40]\n"
        "ldr lr, [r11, #44]\n" OPBRIDGE_DSP_S16_STAGE("0") OPBRIDGE_DSP_S16_STAGE("8")
        "str r2, [r11, #20]\n"
        "str r3, [r11, #24]\n"
        "str lr, [r11, #44]\n"
        "ldr r0, [r11, #48]\n"
        "subs r0, r0, #1\n"
        "str r0, [r11, #48]\n"
        "bne 1b\n"
        "add sp, sp, #16\n"
        "pop {r4-r11, pc}\n"
        OPBRIDGE_ASM_FUNCTION_END(opbridge_dsp_s16_units));
#endif

int32_t opbridge_fully_connected_s16_units_dsp(const opbridge_fully_connected_s8_params *params, const int32_t *pairs,
                                               const int16_t *row, const int8_t *filter, const int64_t *bias,
                                               int16_t *row_output) {
#if OPBRIDGE_DSP_ASSEMBLY
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth & ~1;
  const int32_t steps = depth / 8;
  if (steps == 0 || units == 0) {
    return 0;
  }
  const int32_t channel_step = params->requantization.count == 1 ? 0 : (int32_t)sizeof(int32_t);
  for (int32_t first = 0; first < units; first += OPBRIDGE_S16_DSP_TURN_UNITS) {
    const int32_t turn = units - first < OPBRIDGE_S16_DSP_TURN_UNITS ? units - first : OPBRIDGE_S16_DSP_TURN_UNITS;
    /* Each unit's sum starts from its bias and the products past the last whole step. */
    int64_t starts[OPBRIDGE_S16_DSP_TURN_UNITS];
    for (int32_t k = 0; k < turn; ++k) {
      const int8_t *weights = filter + (size_t)(first + k) * (size_t)depth;
      int64_t start = bias == NULL ? 0 : bias[first + k];
      for (int32_t d = 8 * steps; d < depth; ++d) {
        start += (int32_t)row[d] * (int32_t)weights[d];
      }
      starts[k] = start;
    }
    opbridge_dsp_s16_job job = {
        pairs,
        steps,
        filter + (size_t)first * (size_t)depth,
        depth,
        starts,
        params->requantization.multipliers + (channel_step ? first : 0),
        params->requantization.shifts + (channel_step ? first : 0),
        channel_step,
        params->output_offset,
        params->activation_min,
        params->activation_max,
        row_output + first,
        turn / 2,
    };
    opbridge_dsp_s16_units(&job);
  }
  return units;
#else
  (void)params;
  (void)pairs;
  (void)row;
  (void)filter;
  (void)bias;
  (void)row_output;
  return 0;
#endif
}

#endif /* OPBRIDGE_KERNELS_DSP */
