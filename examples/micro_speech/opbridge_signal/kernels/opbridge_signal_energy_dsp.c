/* SPDX-License-Identifier: Apache-2.0 */
/* SignalEnergy, DSP variant for the Cortex-M4: what opbridge_signal_energy.c calls once the range is
 * checked. A bin's (re, im) is one word of int16 pairs and SMUAD squares and adds both halves:
 * re*re + im*im reaches 2^31 only for (-32768, -32768), where SMUAD's sum wraps (it sets the Q
 * flag, which nothing reads) to 0x80000000, the portable C's uint32 sum. Only the bins in
 * [start_index, end_index) are computed; the others are stored as 0, two words a STRD. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_DSP

#include <arm_acle.h>
#include <stdint.h>
#include <string.h>

#include "opbridge_signal_dsp_internal.h"
#include "opbridge_signal_energy.h"

/* Zeros output[0, count). */
static void opbridge_energy_zero(uint32_t *output, int32_t count) {
  if (count >= 2) {
    int32_t pairs = count / 2;
    const uint32_t zero = 0;
    __asm__ volatile(
        "1:\n\t"
        "strd %[zero], %[zero], [%[out]], #8\n\t"
        "subs %[pairs], %[pairs], #1\n\t"
        "bne 1b"
        : [out] "+r"(output), [pairs] "+r"(pairs)
        : [zero] "r"(zero)
        : "cc", "memory");
  }
  if ((count & 1) != 0) {
    *output = 0;
  }
}

void opbridge_signal_energy_dsp(const int16_t *spectrum, int32_t start_index, int32_t end_index, int32_t bin_count,
                                uint32_t *output) {
  const int16_t *bins = spectrum + 2 * start_index;
  uint32_t *out = output + start_index;
  int32_t count = end_index - start_index;
  opbridge_energy_zero(output, start_index);
  if (((uintptr_t)bins & 3u) == 0 && count >= 4) {
    /* Word-aligned: four bins a step, two LDRDs, four SMUADs and two STRDs. */
    int32_t steps = count / 4;
    uint32_t a;
    uint32_t b;
    uint32_t c;
    uint32_t d;
    __asm__ volatile(
        "1:\n\t"
        "ldrd %[a], %[b], [%[in]], #8\n\t"
        "ldrd %[c], %[d], [%[in]], #8\n\t"
        "smuad %[a], %[a], %[a]\n\t"
        "smuad %[b], %[b], %[b]\n\t"
        "smuad %[c], %[c], %[c]\n\t"
        "smuad %[d], %[d], %[d]\n\t"
        "strd %[a], %[b], [%[out]], #8\n\t"
        "strd %[c], %[d], [%[out]], #8\n\t"
        "subs %[steps], %[steps], #1\n\t"
        "bne 1b"
        : [in] "+r"(bins), [out] "+r"(out), [steps] "+r"(steps), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c),
          [d] "=&r"(d)
        :
        : "cc", "memory");
    count &= 3;
  }
  /* The rest, or every bin of a spectrum at an odd int16 address (single-word LDRs may be unaligned). */
  for (; count > 0; --count) {
    uint32_t pair;
    memcpy(&pair, bins, sizeof pair);
    *out++ = (uint32_t)__smuad((int16x2_t)pair, (int16x2_t)pair);
    bins += 2;
  }
  opbridge_energy_zero(output + end_index, bin_count - end_index);
}

#endif /* OPBRIDGE_KERNELS_DSP */
