/* SPDX-License-Identifier: Apache-2.0 */
/* SignalRfft's instruction-set variants (docs/kernels.md's scheme): opbridge_signal_rfft_dsp.c
 * (Cortex-M4: DSP SIMD on (re, im) int16 pairs) and opbridge_signal_rfft_helium.c (Cortex-M55:
 * MVE), each compiled everywhere and empty but on its core. opbridge_signal_rfft.c calls them
 * where OPBRIDGE_SIGNAL_RFFT_VARIANT is 1; each returns 1 if it did the work and 0 for a shape
 * (or buffer alignment) it does not handle, which the portable code then runs. Their results
 * are those of the portable code, value for value (the rules at the top of
 * opbridge_signal_rfft.c). */
#ifndef OPBRIDGE_SIGNAL_RFFT_INTERNAL_H_
#define OPBRIDGE_SIGNAL_RFFT_INTERNAL_H_

#include <stdint.h>

#include "opbridge_signal_integer.h"
#include "opbridge_signal_rfft.h"

/* The DSP variant packs a complex value into a word as (low, high) halfwords: little-endian only. */
#if OPBRIDGE_KERNELS_HELIUM || (OPBRIDGE_KERNELS_DSP && !defined(__ARM_BIG_ENDIAN))
#define OPBRIDGE_SIGNAL_RFFT_VARIANT 1
#else
#define OPBRIDGE_SIGNAL_RFFT_VARIANT 0
#endif

/* Q15 weights: every stage scales its inputs by floor(32767 / radix) first. */
#define OPBRIDGE_SIGNAL_RFFT_Q15_MAX 32767
#define OPBRIDGE_SIGNAL_RFFT_HALF_LSB 16384

#if OPBRIDGE_SIGNAL_RFFT_VARIANT
/* KISS's leaf copies (with TFLM's zero padding past input_length) fused with the innermost stage
 * when it has radix 4: block b's legs are the complex input samples input_order[4 b] + q points / 4
 * (q = 0..3), their twiddles the stage's entries (all (32767, 0), checked: turning a scaled leg by
 * it changes nothing). Writes the stage's output to `work`. */
int32_t opbridge_signal_rfft_variant_first_stage4(const opbridge_signal_rfft_plan *plan, const int16_t *input,
                                                  int32_t input_length, const int16_t *twiddles, int16_t *work);

#if OPBRIDGE_KERNELS_HELIUM
/* KISS's leaf copies alone (TFLM's zero padding included), for transforms whose innermost stage is not
 * fused with them; Helium only. */
int32_t opbridge_signal_rfft_variant_leaves(const opbridge_signal_rfft_plan *plan, const int16_t *input,
                                            int32_t input_length, int16_t *work);

/* One radix-2 stage in place (the innermost, span 1, for lengths such as 256 and 1,024), `twiddles` the
 * stage's entries; Helium only. */
int32_t opbridge_signal_rfft_variant_stage2(int16_t *work, int32_t span, int32_t stride, const int16_t *twiddles);
#endif

/* One radix-4 stage in place: `stride` blocks of 4 legs of `span` values, `twiddles` the stage's
 * entries (leg-major, as in the plan). */
int32_t opbridge_signal_rfft_variant_stage4(int16_t *work, int32_t span, int32_t stride, const int16_t *twiddles);

/* KISS's split step: one frame's fft_length / 2 + 1 bins from the complex FFT in `work`. */
int32_t opbridge_signal_rfft_variant_split(const opbridge_signal_rfft_plan *plan, const int16_t *work,
                                           int16_t *output);
#endif

#endif /* OPBRIDGE_SIGNAL_RFFT_INTERNAL_H_ */
