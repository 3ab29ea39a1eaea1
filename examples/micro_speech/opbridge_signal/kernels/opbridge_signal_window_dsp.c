/* SPDX-License-Identifier: Apache-2.0 */
/* SignalWindow, DSP variant for the Cortex-M4: what opbridge_signal_window.c calls for each run of
 * weight_count samples. Two samples a word: SMULBB and SMULTT multiply the pairs' bottom and top
 * halves into int32, an arithmetic right shift floors (as opbridge_signal_shift_right), SSAT #16
 * saturates and PKHBT packs the two results back into a word. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_DSP

#include <arm_acle.h>
#include <stdint.h>
#include <string.h>

#include "opbridge_signal_dsp_internal.h"
#include "opbridge_signal_window.h"

/* TFLM's front end windows with Q12 weights (its window bits): at that shift a loop whose SSATs
 * shift by the immediate (SSAT #16, ASR #12), two instructions fewer per pair. */
#define OPBRIDGE_WINDOW_FRONT_END_SHIFT 12

/* The low halves of `low` and of `high` as one word: bits 0-15 from `low`, 16-31 from `high`. */
static inline uint32_t opbridge_window_pack(int32_t low, int32_t high) {
  uint32_t packed;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(packed) : "r"(low), "r"(high));
  return packed;
}

/* Two samples and their two weights, each a word of int16 pairs (the first in the low half). GCC and
 * the Arm compilers shift negative values arithmetically, so >> floors. */
static inline uint32_t opbridge_window_pair(uint32_t samples, uint32_t weights, int32_t shift) {
  const int32_t low = __ssat(((int32_t)(int16_t)samples * (int16_t)weights) >> shift, 16);
  const int32_t high = __ssat((((int32_t)samples >> 16) * ((int32_t)weights >> 16)) >> shift, 16);
  return opbridge_window_pack(low, high);
}

/* One pair in place: x = its two samples, w = their weights, t a scratch register; x ends as the
 * two results. The SSATs' shift is either ASR by a register or the front end's immediate. */
#define OPBRIDGE_WINDOW_PAIR_SHIFTED(x, w)                    \
  "smulbb %[t], %[" #x "], %[" #w "]\n\t"                     \
  "smultt %[" #x "], %[" #x "], %[" #w "]\n\t"                \
  "asr %[t], %[t], %[shift]\n\t"                              \
  "asr %[" #x "], %[" #x "], %[shift]\n\t"                    \
  "ssat %[t], #16, %[t]\n\t"                                  \
  "ssat %[" #x "], #16, %[" #x "]\n\t"                        \
  "pkhbt %[" #x "], %[t], %[" #x "], lsl #16\n\t"
#define OPBRIDGE_WINDOW_PAIR_12(x, w)                         \
  "smulbb %[t], %[" #x "], %[" #w "]\n\t"                     \
  "smultt %[" #x "], %[" #x "], %[" #w "]\n\t"                \
  "ssat %[t], #16, %[t], asr #12\n\t"                        \
  "ssat %[" #x "], #16, %[" #x "], asr #12\n\t"              \
  "pkhbt %[" #x "], %[t], %[" #x "], lsl #16\n\t"

/* Word-aligned buffers, count >= 4: whole steps of four samples (eight at the front end's shift),
 * each two LDRDs, the pairs and one or two STRDs. Returns how many samples it did. */
static int32_t opbridge_window_aligned(const int16_t *input, const int16_t *weights, int32_t count, int32_t shift,
                                       int16_t *output) {
  uint32_t x0;
  uint32_t x1;
  uint32_t w0;
  uint32_t w1;
  uint32_t t;
  if (shift == OPBRIDGE_WINDOW_FRONT_END_SHIFT && count >= 8) {
    int32_t steps = count / 8;
    uint32_t x2;
    uint32_t x3;
    uint32_t w2;
    uint32_t w3;
    __asm__ volatile(
        "1:\n\t"
        "ldrd %[x0], %[x1], [%[in]], #8\n\t"
        "ldrd %[w0], %[w1], [%[wt]], #8\n\t"
        OPBRIDGE_WINDOW_PAIR_12(x0, w0)
        OPBRIDGE_WINDOW_PAIR_12(x1, w1)
        "ldrd %[x2], %[x3], [%[in]], #8\n\t"
        "ldrd %[w2], %[w3], [%[wt]], #8\n\t"
        "strd %[x0], %[x1], [%[out]], #8\n\t"
        OPBRIDGE_WINDOW_PAIR_12(x2, w2)
        OPBRIDGE_WINDOW_PAIR_12(x3, w3)
        "strd %[x2], %[x3], [%[out]], #8\n\t"
        "subs %[steps], %[steps], #1\n\t"
        "bne 1b"
        : [in] "+r"(input), [wt] "+r"(weights), [out] "+r"(output), [steps] "+r"(steps), [x0] "=&r"(x0),
          [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2),
          [w3] "=&r"(w3), [t] "=&r"(t)
        :
        : "cc", "memory");
    return count & ~7;
  } else {
    int32_t steps = count / 4;
    __asm__ volatile(
        "1:\n\t"
        "ldrd %[x0], %[x1], [%[in]], #8\n\t"
        "ldrd %[w0], %[w1], [%[wt]], #8\n\t"
        OPBRIDGE_WINDOW_PAIR_SHIFTED(x0, w0)
        OPBRIDGE_WINDOW_PAIR_SHIFTED(x1, w1)
        "strd %[x0], %[x1], [%[out]], #8\n\t"
        "subs %[steps], %[steps], #1\n\t"
        "bne 1b"
        : [in] "+r"(input), [wt] "+r"(weights), [out] "+r"(output), [steps] "+r"(steps), [x0] "=&r"(x0),
          [x1] "=&r"(x1), [w0] "=&r"(w0), [w1] "=&r"(w1), [t] "=&r"(t)
        : [shift] "r"(shift)
        : "cc", "memory");
    return count & ~3;
  }
}

/* A pair a step with single-word loads and stores, which the Cortex-M4 allows at any even address:
 * buffers not all word-aligned, and the samples the loops above leave. */
static void opbridge_window_pairs(const int16_t *input, const int16_t *weights, int32_t count, int32_t shift,
                                  int16_t *output) {
  int32_t i = 0;
  for (; i + 2 <= count; i += 2) {
    uint32_t samples;
    uint32_t window;
    memcpy(&samples, input + i, sizeof samples);
    memcpy(&window, weights + i, sizeof window);
    const uint32_t result = opbridge_window_pair(samples, window, shift);
    memcpy(output + i, &result, sizeof result);
  }
  if (i < count) {
    output[i] = (int16_t)__ssat(((int32_t)input[i] * weights[i]) >> shift, 16);
  }
}

void opbridge_signal_window_dsp(const int16_t *input, const int16_t *weights, int32_t count, int32_t shift,
                                int16_t *output) {
  int32_t done = 0;
  if ((((uintptr_t)input | (uintptr_t)weights | (uintptr_t)output) & 3u) == 0 && count >= 4) {
    done = opbridge_window_aligned(input, weights, count, shift, output);
  }
  opbridge_window_pairs(input + done, weights + done, count - done, shift, output + done);
}

#endif /* OPBRIDGE_KERNELS_DSP */
