/* SPDX-License-Identifier: Apache-2.0 */
/* SignalRfft, DSP variant (Cortex-M4 and other Armv7E-M cores without Helium): the innermost
 * radix-4 stage fused with the leaf copies, the other radix-4 stages and the split step on
 * complex values held as one word each, (re, im) = (low, high) halfword, with the DSP
 * extension's halfword SIMD. The same values as the portable code (opbridge_signal_rfft.c):
 *   - scale_down by w = floor(32767 / radix): SMLABB/SMLATB form x 2w + 2^15 = 2 (x w + 2^14)
 *     for each part in int32 (no overflow: |x 2w| < 2^30), whose high halfword is
 *     ((x w + 2^14) >> 15) wrapped to int16, i.e. round_q15; PKHTB packs the two high halfwords;
 *   - the twiddle product: SMLSD and SMLADX form each part's two products plus 2^14 in int32 (in
 *     range: |s t| <= |s| |t| < 2^31 for any int16 s), which is rounded once by the arithmetic
 *     >> 15 and wrapped by keeping the low halfword (PKHBT);
 *   - sums and differences: SADD16/SSUB16 wrap each halfword modulo 2^16 like the int16 stores;
 *     SSAX is minus_i_times (re + b.im, im - b.re), SASX plus_i_times;
 *   - the split step's halving: SHADD16/SHSUB16 give floor((a +- b) / 2) of the int16 halfwords
 *     from their exact 17-bit sum, as shift_right of the int sum of the two stored int16 does.
 * Loads and stores of a complex value go through memcpy (an LDR/STR, which may be unaligned on
 * these cores), so the buffers need only int16 alignment. */
#include "opbridge_signal_rfft_internal.h"

#if OPBRIDGE_KERNELS_DSP && OPBRIDGE_SIGNAL_RFFT_VARIANT

#include <arm_acle.h>
#include <string.h>

#define RFFT_ALWAYS_INLINE __attribute__((always_inline))

/* One complex Q15 value: the real part in the low halfword, the imaginary part in the high. */
typedef int32_t pair;

static inline RFFT_ALWAYS_INLINE pair load_pair(const int16_t *values) {
  pair value;
  memcpy(&value, values, sizeof value);
  return value;
}

static inline RFFT_ALWAYS_INLINE void store_pair(int16_t *values, pair value) { memcpy(values, &value, sizeof value); }

/* The high halfword of `high` above the high halfword of `low`. */
static inline RFFT_ALWAYS_INLINE pair pack_high_halves(int32_t high, int32_t low) {
  pair result;
  __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(result) : "r"(high), "r"(low));
  return result;
}

/* The low halfword of `low` below the high halfword of `high`. */
static inline RFFT_ALWAYS_INLINE pair pack_low_high(int32_t low, int32_t high) {
  pair result;
  __asm__("pkhbt %0, %1, %2" : "=r"(result) : "r"(low), "r"(high));
  return result;
}

/* (real >> 15, imaginary >> 15), each wrapped to int16: the low halfword of real >> 15 and
 * bits 15..30 of imaginary. */
static inline RFFT_ALWAYS_INLINE pair pack_q15(int32_t real, int32_t imaginary) {
  pair result;
  __asm__("pkhbt %0, %1, %2, lsl #1" : "=r"(result) : "r"(real >> 15), "r"(imaginary));
  return result;
}

/* scale_down: both parts times weight = double_weight / 2 in Q15, rounded; round is 2^15. */
static inline RFFT_ALWAYS_INLINE pair scale_pair(pair x, int32_t double_weight, int32_t round) {
  return pack_high_halves(__smlatb(x, double_weight, round), __smlabb(x, double_weight, round));
}

/* multiply: the complex Q15 product, each part's two products summed and rounded once; half is 2^14. */
static inline RFFT_ALWAYS_INLINE pair turn_pair(pair a, pair twiddle, int32_t half) {
  return pack_q15(__smlsd(a, twiddle, half), __smladx(a, twiddle, half));
}

static inline RFFT_ALWAYS_INLINE void dft4_pairs(pair *x0, pair *x1, pair *x2, pair *x3) {
  const pair even_sum = __sadd16(*x0, *x2);
  const pair even_difference = __ssub16(*x0, *x2);
  const pair odd_sum = __sadd16(*x1, *x3);
  const pair odd_difference = __ssub16(*x1, *x3);
  *x0 = __sadd16(even_sum, odd_sum);
  *x1 = __ssax(even_difference, odd_difference);
  *x2 = __ssub16(even_sum, odd_sum);
  *x3 = __sasx(even_difference, odd_difference);
}

/* Complex input sample `index`: its two samples, zero past input_length. */
static pair load_leaf(const int16_t *input, int32_t input_length, int32_t index) {
  const int32_t sample = 2 * index;
  if (sample + 1 < input_length) {
    return load_pair(input + sample);
  }
  return sample < input_length ? (pair)(uint16_t)input[sample] : 0;
}

/* The fused leaves and innermost radix-4 stage over `points` complex values (a constant where
 * inlined for the common lengths, so that the legs' offsets are immediates). */
static inline RFFT_ALWAYS_INLINE void first_stage4(const uint16_t *order, const int16_t *input, int32_t input_length,
                                                   int32_t points, int16_t *work) {
  const int32_t quarter = points / 4; /* blocks, and the complex offset from one leg to the next */
  const int32_t double_weight = 2 * (OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 4);
  const int32_t round = 2 * OPBRIDGE_SIGNAL_RFFT_HALF_LSB;
  /* Block b's legs are all whole samples pairs inside the input when order[4 b] < limit. */
  const int32_t limit = input_length / 2 - 3 * quarter;
  const uint16_t *const end = order + points;
  for (; order != end; order += 4, work += 8) {
    const int32_t leaf = *order;
    pair x0;
    pair x1;
    pair x2;
    pair x3;
    if (leaf < limit) {
      const int16_t *const samples = input + 2 * leaf;
      x0 = load_pair(samples);
      x1 = load_pair(samples + 2 * quarter);
      x2 = load_pair(samples + 4 * quarter);
      x3 = load_pair(samples + 6 * quarter);
    } else {
      x0 = load_leaf(input, input_length, leaf);
      x1 = load_leaf(input, input_length, leaf + quarter);
      x2 = load_leaf(input, input_length, leaf + 2 * quarter);
      x3 = load_leaf(input, input_length, leaf + 3 * quarter);
    }
    x0 = scale_pair(x0, double_weight, round);
    x1 = scale_pair(x1, double_weight, round);
    x2 = scale_pair(x2, double_weight, round);
    x3 = scale_pair(x3, double_weight, round);
    dft4_pairs(&x0, &x1, &x2, &x3);
    store_pair(work, x0);
    store_pair(work + 2, x1);
    store_pair(work + 4, x2);
    store_pair(work + 6, x3);
  }
}

int32_t opbridge_signal_rfft_variant_first_stage4(const opbridge_signal_rfft_plan *plan, const int16_t *input,
                                                  int32_t input_length, const int16_t *twiddles, int16_t *work) {
  const int32_t points = plan->fft_length / 2;
  int32_t leg;
  if (points % 4 != 0) {
    return 0;
  }
  for (leg = 0; leg < 3; ++leg) {
    if (twiddles[2 * leg] != OPBRIDGE_SIGNAL_RFFT_Q15_MAX || twiddles[2 * leg + 1] != 0) {
      return 0;
    }
  }
  if (points == 256) {
    first_stage4(plan->input_order, input, input_length, 256, work);
  } else {
    first_stage4(plan->input_order, input, input_length, points, work);
  }
  return 1;
}

/* A radix-4 stage: in each block, four legs of `span` positions (a constant where inlined for
 * the common spans); position k's twiddles are the stage's entries k, span + k, 2 span + k. */
static inline RFFT_ALWAYS_INLINE void stage4(int16_t *work, int32_t span, int32_t stride, const int16_t *twiddles) {
  const int32_t double_weight = 2 * (OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 4);
  const int32_t round = 2 * OPBRIDGE_SIGNAL_RFFT_HALF_LSB;
  const int32_t half = OPBRIDGE_SIGNAL_RFFT_HALF_LSB;
  int16_t *const work_end = work + 8 * span * stride;
  for (; work != work_end; work += 8 * span) {
    int16_t *values = work;
    int16_t *const end = work + 2 * span;
    const int16_t *turns = twiddles;
    do {
      pair x0 = scale_pair(load_pair(values), double_weight, round);
      pair x1 = turn_pair(scale_pair(load_pair(values + 2 * span), double_weight, round), load_pair(turns), half);
      pair x2 = turn_pair(scale_pair(load_pair(values + 4 * span), double_weight, round),
                          load_pair(turns + 2 * span), half);
      pair x3 = turn_pair(scale_pair(load_pair(values + 6 * span), double_weight, round),
                          load_pair(turns + 4 * span), half);
      dft4_pairs(&x0, &x1, &x2, &x3);
      store_pair(values, x0);
      store_pair(values + 2 * span, x1);
      store_pair(values + 4 * span, x2);
      store_pair(values + 6 * span, x3);
      values += 2;
      turns += 2;
    } while (values != end);
  }
}

int32_t opbridge_signal_rfft_variant_stage4(int16_t *work, int32_t span, int32_t stride, const int16_t *twiddles) {
  switch (span) {
    case 4: stage4(work, 4, stride, twiddles); break;
    case 16: stage4(work, 16, stride, twiddles); break;
    case 64: stage4(work, 64, stride, twiddles); break;
    default: stage4(work, span, stride, twiddles); break;
  }
  return 1;
}

int32_t opbridge_signal_rfft_variant_split(const opbridge_signal_rfft_plan *plan, const int16_t *work,
                                           int16_t *output) {
  const int32_t points = plan->fft_length / 2;
  const int32_t double_weight = 2 * (OPBRIDGE_SIGNAL_RFFT_Q15_MAX / 2);
  const int32_t round = 2 * OPBRIDGE_SIGNAL_RFFT_HALF_LSB;
  const int32_t half = OPBRIDGE_SIGNAL_RFFT_HALF_LSB;
  const pair dc = scale_pair(load_pair(work), double_weight, round);
  const int32_t dc_real = (int16_t)(uint16_t)((uint32_t)dc & 0xFFFFu);
  const int32_t dc_imaginary = dc >> 16;
  const int16_t *forward = work + 2;
  const int16_t *mirrored = work + 2 * (points - 1);
  const int16_t *turns = plan->split_twiddles;
  int16_t *out_forward = output + 2;
  int16_t *out_mirrored = output + 2 * (points - 1);
  int16_t *const out_end = output + 2 + 2 * (points / 2);
  store_pair(output, (pair)(uint16_t)(dc_real + dc_imaginary));
  store_pair(output + 2 * points, (pair)(uint16_t)(dc_real - dc_imaginary));
  /* Bin k from bins k and points - k; at k = points / 2 both stores hit one bin and the
   * mirrored (second) one is kept, as in KISS. */
  for (; out_forward != out_end; forward += 2, mirrored -= 2, turns += 2, out_forward += 2, out_mirrored -= 2) {
    const pair f = scale_pair(load_pair(forward), double_weight, round);
    const pair raw = load_pair(mirrored);
    /* The conjugate: its imaginary part is the negation wrapped to int16, then scaled. */
    const pair m = pack_high_halves(__smlatb(__ssub16(0, raw), double_weight, round),
                                    __smlabb(raw, double_weight, round));
    const pair sum = __sadd16(f, m);
    const pair rotated = turn_pair(__ssub16(f, m), load_pair(turns), half);
    store_pair(out_forward, __shadd16(sum, rotated));
    store_pair(out_mirrored, pack_low_high(__shsub16(sum, rotated), __shsub16(rotated, sum)));
  }
  return 1;
}

#endif /* OPBRIDGE_KERNELS_DSP && OPBRIDGE_SIGNAL_RFFT_VARIANT */
