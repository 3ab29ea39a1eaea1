/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFftAutoScale, DSP variant for the Cortex-M4: the two passes opbridge_signal_fft_auto_scale.c
 * calls, two samples a word. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_DSP

#include <arm_acle.h>
#include <stdint.h>
#include <string.h>

#include "opbridge_signal_dsp_internal.h"
#include "opbridge_signal_fft_auto_scale.h"

/* |x| of both halves (SSUB16 from 0 sets GE where x <= 0, SEL takes -x there): -32768 gives 0x8000,
 * the negation wrapping in its half, so its bit 15 marks it. */
static inline uint32_t opbridge_auto_scale_magnitudes(uint32_t samples) {
  const int16x2_t negated = __ssub16(0, (int16x2_t)samples);
  return __sel((uint8x4_t)negated, (uint8x4_t)samples);
}

/* The OR of |x| (as a 16-bit pattern) over the samples: below 0x8000 its bit length is the largest
 * |x|'s; 0x8000 and above, some sample is -32768. */
uint32_t opbridge_signal_fft_auto_scale_magnitudes_dsp(const int16_t *input, int32_t count) {
  uint32_t bits = 0;
  int32_t i = 0;
  if (count <= 0) {
    return 0;
  }
  if (((uintptr_t)input & 3u) != 0) {
    /* The first sample alone, so that the words below start word-aligned (LDRD). */
    const uint32_t magnitude = (uint32_t)(input[0] < 0 ? -(int32_t)input[0] : input[0]);
    bits = magnitude;
    i = 1;
  }
  {
    const uint32_t *word = (const uint32_t *)__builtin_assume_aligned(input + i, 4);
    const uint32_t *const end = word + 4 * ((count - i) / 8);
    while (word != end) {
      uint32_t samples[4];
      memcpy(samples, word, sizeof samples);
      bits |= opbridge_auto_scale_magnitudes(samples[0]) | opbridge_auto_scale_magnitudes(samples[1]);
      bits |= opbridge_auto_scale_magnitudes(samples[2]) | opbridge_auto_scale_magnitudes(samples[3]);
      word += 4;
    }
  }
  for (i += (count - i) & ~7; i + 2 <= count; i += 2) {
    uint32_t samples;
    memcpy(&samples, input + i, sizeof samples);
    bits |= opbridge_auto_scale_magnitudes(samples);
  }
  if (i < count) {
    bits |= (uint32_t)(input[i] < 0 ? -(int32_t)input[i] : input[i]);
  }
  return (bits | (bits >> 16)) & 0xFFFFu;
}

/* Both halves times 2^bits, each wrapped to 16 bits as the portable C's store: the low half of
 * samples << bits is the first sample's, SMULTB (by factor = 2^bits) gives the second's, PKHBT packs
 * the two. */
#define OPBRIDGE_AUTO_SCALE_SHIFT_PAIR(pair)           \
  "smultb %[t], %[" #pair "], %[factor]\n\t"          \
  "lsl %[" #pair "], %[" #pair "], %[bits]\n\t"       \
  "pkhbt %[" #pair "], %[" #pair "], %[t], lsl #16\n\t"

/* output[i] = input[i] << bits wrapped to int16, 0 <= bits <= 14. The output may be the input. */
void opbridge_signal_fft_auto_scale_shift_dsp(const int16_t *input, int32_t count, int32_t bits, int16_t *output) {
  const int32_t factor = (int32_t)1 << bits;
  if ((((uintptr_t)input | (uintptr_t)output) & 3u) == 0 && count >= 8) {
    /* Word-aligned: eight samples a step, two LDRDs, four pairs and two STRDs (each step loads
     * before it stores, so in place works). */
    int32_t steps = count / 8;
    uint32_t a;
    uint32_t b;
    uint32_t c;
    uint32_t d;
    uint32_t t;
    __asm__ volatile(
        "1:\n\t"
        "ldrd %[a], %[b], [%[in]], #8\n\t"
        "ldrd %[c], %[d], [%[in]], #8\n\t"
        OPBRIDGE_AUTO_SCALE_SHIFT_PAIR(a)
        OPBRIDGE_AUTO_SCALE_SHIFT_PAIR(b)
        OPBRIDGE_AUTO_SCALE_SHIFT_PAIR(c)
        OPBRIDGE_AUTO_SCALE_SHIFT_PAIR(d)
        "strd %[a], %[b], [%[out]], #8\n\t"
        "strd %[c], %[d], [%[out]], #8\n\t"
        "subs %[steps], %[steps], #1\n\t"
        "bne 1b"
        : [in] "+r"(input), [out] "+r"(output), [steps] "+r"(steps), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c),
          [d] "=&r"(d), [t] "=&r"(t)
        : [bits] "r"(bits), [factor] "r"(factor)
        : "cc", "memory");
    count &= 7;
  }
  for (; count >= 2; count -= 2) {
    uint32_t pair;
    uint32_t t;
    memcpy(&pair, input, sizeof pair);
    __asm__(OPBRIDGE_AUTO_SCALE_SHIFT_PAIR(pair)
            : [pair] "+r"(pair), [t] "=&r"(t)
            : [bits] "r"(bits), [factor] "r"(factor));
    memcpy(output, &pair, sizeof pair);
    input += 2;
    output += 2;
  }
  if (count != 0) {
    *output = (int16_t)((uint32_t)*input << bits);
  }
}

#endif /* OPBRIDGE_KERNELS_DSP */
