/* SPDX-License-Identifier: Apache-2.0 */
/* SignalRfft (int16), bit-exact with TFLM's fixed-point KISS FFT.
 *
 * Same arithmetic as KISS with FIXED_POINT=16, organised differently: KISS
 * recurses; here the input is gathered in digit-reversed order once and the
 * stages run innermost first over all their blocks, which yields the same
 * values because the blocks of a stage are disjoint. Each butterfly
 * scales and twiddles its legs, then takes their small DFT (dft2..dft5).
 * What must match KISS exactly, value by value:
 *   - every stage first scales its inputs by floor(32767 / radix) in Q15;
 *   - every Q15 product is rounded by adding 2^14 and shifting right by 15:
 *     a complex product once per part, a real weight once per term;
 *   - every value stored is an int16 (sums wrap modulo 2^16);
 *   - the split step halves int sums before storing them.
 * On the Cortex-M4 (opbridge_signal_rfft_dsp.c) and the Cortex-M55
 * (opbridge_signal_rfft_helium.c) the radix-4 stages (the first fused with the
 * leaf copies) and the split step run as SIMD with the same values; this code
 * runs the other radices and the shapes those variants decline. */
#include "opbridge_signal_rfft.h"
#include "opbridge_signal_integer.h"
#include "opbridge_signal_rfft_internal.h"

#define Q15_MAX OPBRIDGE_SIGNAL_RFFT_Q15_MAX
#define Q15_HALF_LSB OPBRIDGE_SIGNAL_RFFT_HALF_LSB
/* Stages of radix 2, 3, 4 and 5 only: TFLM cannot run its generic radix. */
#define MAX_RADIX 5

typedef struct {
  int16_t r;
  int16_t i;
} q15_complex;

static int16_t round_q15(int32_t product) { return opbridge_signal_wrap16(opbridge_signal_shift_right(product + Q15_HALF_LSB, 15)); }

static q15_complex make(int32_t r, int32_t i) {
  q15_complex result;
  result.r = opbridge_signal_wrap16(r);
  result.i = opbridge_signal_wrap16(i);
  return result;
}

static q15_complex load(const int16_t *values, int32_t index) {
  q15_complex result;
  result.r = values[2 * index];
  result.i = values[2 * index + 1];
  return result;
}

static void store(int16_t *values, int32_t index, q15_complex value) {
  values[2 * index] = value.r;
  values[2 * index + 1] = value.i;
}

static q15_complex add(q15_complex a, q15_complex b) { return make((int32_t)a.r + b.r, (int32_t)a.i + b.i); }

static q15_complex subtract(q15_complex a, q15_complex b) { return make((int32_t)a.r - b.r, (int32_t)a.i - b.i); }

/* Complex product in Q15: both products of each part are summed in int32
 * and rounded once (not rounded separately, unlike multiply_real). */
static q15_complex multiply(q15_complex a, q15_complex b) {
  q15_complex result;
  result.r = round_q15((int32_t)a.r * b.r - (int32_t)a.i * b.i);
  result.i = round_q15((int32_t)a.r * b.i + (int32_t)a.i * b.r);
  return result;
}

/* a * weight for a real Q15 weight: each part is its own rounded product. */
static q15_complex multiply_real(q15_complex a, int32_t weight) {
  q15_complex result;
  result.r = round_q15((int32_t)a.r * weight);
  result.i = round_q15((int32_t)a.i * weight);
  return result;
}

/* Every stage multiplies its inputs by floor(32767 / radix) in Q15 first, so
 * that the sum of `radix` values fits in int16 again. This is TFLM's overflow
 * guard, not an exact division, and it must be rounded like any product. */
static q15_complex scale_down(q15_complex a, int32_t radix) { return multiply_real(a, Q15_MAX / radix); }

/* a + i * b and a - i * b: the small DFTs below rotate by +-i exactly, by
 * swapping parts, never through a Q15 product. */
static q15_complex plus_i_times(q15_complex a, q15_complex b) { return make((int32_t)a.r - b.i, (int32_t)a.i + b.r); }

static q15_complex minus_i_times(q15_complex a, q15_complex b) { return make((int32_t)a.r + b.i, (int32_t)a.i - b.r); }

/* The small DFTs of one butterfly, in place on its already twiddled legs
 * x[0..radix-1]. Stored sums wrap modulo 2^16, so a chain of additions gives
 * the same int16 however it is grouped; but a value that is then halved or
 * multiplied must be the wrapped int16 TFLM has at that point, so such
 * values (the pair sums and differences) are formed and wrapped first. */

static void dft2(q15_complex *x) {
  const q15_complex first = x[0];
  x[0] = add(first, x[1]);
  x[1] = subtract(first, x[1]);
}

/* With root1 = exp(-2 pi i / 3), bins 1 and 2 are
 *   x0 + cos(2 pi / 3) (x1 + x2)  +-  i Im(root1) (x1 - x2).
 * cos(2 pi / 3) is exactly -1/2, applied as an arithmetic shift of the
 * wrapped pair sum; only Im(root1) goes through a Q15 product. */
static void dft3(q15_complex *x, q15_complex root1) {
  const q15_complex pair_sum = add(x[1], x[2]);
  const q15_complex pair_difference = subtract(x[1], x[2]);
  const q15_complex cosine_terms =
      make((int32_t)x[0].r - opbridge_signal_shift_right(pair_sum.r, 1), (int32_t)x[0].i - opbridge_signal_shift_right(pair_sum.i, 1));
  const q15_complex sine_terms = multiply_real(pair_difference, root1.i);
  x[0] = add(x[0], pair_sum);
  x[1] = plus_i_times(cosine_terms, sine_terms);
  x[2] = minus_i_times(cosine_terms, sine_terms);
}

/* The radix-4 roots are 1, -i, -1, i: combining the sums and differences of
 * opposite legs (0 and 2, 1 and 3) needs no products at all. */
static void dft4(q15_complex *x) {
  const q15_complex even_sum = add(x[0], x[2]);
  const q15_complex even_difference = subtract(x[0], x[2]);
  const q15_complex odd_sum = add(x[1], x[3]);
  const q15_complex odd_difference = subtract(x[1], x[3]);
  x[0] = add(even_sum, odd_sum);
  x[1] = minus_i_times(even_difference, odd_difference);
  x[2] = subtract(even_sum, odd_sum);
  x[3] = plus_i_times(even_difference, odd_difference);
}

/* Legs q and 5 - q turn by conjugate roots, so each pair enters through its
 * sum (times the real part of its root) and its difference (times the
 * imaginary part). With root1 = exp(-2 pi i / 5), root2 = exp(-4 pi i / 5):
 *   bins 1, 4: outer pair (1, 4) turns by root1, inner pair (2, 3) by root2;
 *   bins 2, 3: outer pair turns by root2, inner pair by conj(root1).
 * Each product is rounded to int16 on its own, as TFLM does; the rounded
 * terms are then only added, so their grouping is free. */
static void dft5(q15_complex *x, q15_complex root1, q15_complex root2) {
  const q15_complex outer_sum = add(x[1], x[4]);
  const q15_complex outer_difference = subtract(x[1], x[4]);
  const q15_complex inner_sum = add(x[2], x[3]);
  const q15_complex inner_difference = subtract(x[2], x[3]);
  const q15_complex cosine_terms1 =
      add(x[0], add(multiply_real(outer_sum, root1.r), multiply_real(inner_sum, root2.r)));
  const q15_complex sine_terms1 =
      add(multiply_real(outer_difference, root1.i), multiply_real(inner_difference, root2.i));
  const q15_complex cosine_terms2 =
      add(x[0], add(multiply_real(outer_sum, root2.r), multiply_real(inner_sum, root1.r)));
  /* conj(root1) for the inner pair: subtract the rounded product rather than
   * negating the weight, since rounding is not symmetric about zero. */
  const q15_complex sine_terms2 =
      subtract(multiply_real(outer_difference, root2.i), multiply_real(inner_difference, root1.i));
  x[0] = add(x[0], add(outer_sum, inner_sum));
  x[1] = plus_i_times(cosine_terms1, sine_terms1);
  x[4] = minus_i_times(cosine_terms1, sine_terms1);
  x[2] = plus_i_times(cosine_terms2, sine_terms2);
  x[3] = minus_i_times(cosine_terms2, sine_terms2);
}

/* One stage over all its blocks: `stride` blocks of radix * span values, each
 * combining `radix` sub-transforms (legs) of length `span`. Position k of leg
 * q is scaled down and turned by exp(-2 pi i q k / (radix * span)), the
 * stage's table entry (q - 1) * span + k, before the small DFT across the
 * legs. `roots` holds exp(-2 pi i / radix) and exp(-4 pi i / radix) for
 * radices 3 and 5. */
static void run_stage(int16_t *work, int32_t radix, int32_t span, int32_t stride, const int16_t *roots,
                      const int16_t *twiddles) {
  const int32_t has_roots = radix == 3 || radix == 5;
  const q15_complex root1 = has_roots ? load(roots, 0) : make(0, 0);
  const q15_complex root2 = has_roots ? load(roots, 1) : root1;
  q15_complex legs[MAX_RADIX];
  int32_t block;
  for (block = 0; block < stride; ++block) {
    int16_t *const values = work + 2 * block * radix * span;
    int32_t k;
    for (k = 0; k < span; ++k) {
      int32_t q;
      legs[0] = scale_down(load(values, k), radix);
      for (q = 1; q < radix; ++q) {
        legs[q] = multiply(scale_down(load(values, k + q * span), radix), load(twiddles, (q - 1) * span + k));
      }
      switch (radix) {
        case 2: dft2(legs); break;
        case 3: dft3(legs, root1); break;
        case 4: dft4(legs); break;
        default: dft5(legs, root1, root2); break;
      }
      for (q = 0; q < radix; ++q) {
        store(values, k + q * span, legs[q]);
      }
    }
  }
}

/* KISS's kiss_fft over the input's (even, odd) sample pairs, into `work`. */
static int32_t complex_fft(const opbridge_signal_rfft_plan *plan, const int16_t *input, int32_t input_length,
                           int16_t *work) {
  const int32_t points = plan->fft_length / 2;
  const int16_t *twiddles = plan->stage_twiddles;
  int32_t stage = plan->stage_count - 1;
  int32_t stride = points;
  int32_t position;
  for (position = 0; position < plan->stage_count; ++position) {
    const int32_t radix = plan->stages[2 * position];
    if (radix < 2 || radix > MAX_RADIX) {
      return 1; /* TFLM cannot run a generic-radix stage either */
    }
  }
#if OPBRIDGE_SIGNAL_RFFT_VARIANT
  /* The leaf copies and an innermost radix-4 stage in one pass. */
  if (stage >= 0 && plan->stages[2 * stage] == 4 &&
      opbridge_signal_rfft_variant_first_stage4(plan, input, input_length, twiddles, work)) {
    stride /= 4;
    twiddles += 2 * 3 * plan->stages[2 * stage + 1];
    --stage;
  } else
#endif
  {
    /* KISS's leaf copies, with the zero padding TFLM applies past input_length. */
    position = 0;
#if OPBRIDGE_KERNELS_HELIUM
    position = opbridge_signal_rfft_variant_leaves(plan, input, input_length, work) ? points : 0;
#endif
    for (; position < points; ++position) {
      const int32_t sample = 2 * (int32_t)plan->input_order[position];
      work[2 * position] = sample < input_length ? input[sample] : 0;
      work[2 * position + 1] = sample + 1 < input_length ? input[sample + 1] : 0;
    }
  }
  /* Innermost stage first, as KISS's recursion unwinds. */
  for (; stage >= 0; --stage) {
    const int32_t radix = plan->stages[2 * stage];
    const int32_t span = plan->stages[2 * stage + 1];
    const int16_t *const roots = twiddles;
    stride /= radix;
    if (radix == 3 || radix == 5) {
      twiddles += 2 * 2;
    }
#if OPBRIDGE_SIGNAL_RFFT_VARIANT
    if (radix == 4 && opbridge_signal_rfft_variant_stage4(work, span, stride, twiddles)) {
      twiddles += 2 * 3 * span;
      continue;
    }
#endif
#if OPBRIDGE_KERNELS_HELIUM
    if (radix == 2 && opbridge_signal_rfft_variant_stage2(work, span, stride, twiddles)) {
      twiddles += 2 * span;
      continue;
    }
#endif
    run_stage(work, radix, span, stride, roots, twiddles);
    twiddles += 2 * (radix - 1) * span;
  }
  return 0;
}

/* KISS's kiss_fftr split step: the spectrum of the real input from the
 * complex spectrum of its sample pairs. */
static void split_spectrum(const opbridge_signal_rfft_plan *plan, const int16_t *work, int16_t *output) {
  const int32_t points = plan->fft_length / 2;
  const q15_complex dc = scale_down(load(work, 0), 2);
  int32_t k;
  store(output, 0, make((int32_t)dc.r + dc.i, 0));
  store(output, points, make((int32_t)dc.r - dc.i, 0));
  for (k = 1; k <= points / 2; ++k) {
    const q15_complex forward = scale_down(load(work, k), 2);
    const q15_complex mirrored_raw = load(work, points - k);
    const q15_complex mirrored = scale_down(make(mirrored_raw.r, -(int32_t)mirrored_raw.i), 2);
    const q15_complex sum = add(forward, mirrored);
    const q15_complex rotated = multiply(subtract(forward, mirrored), load(plan->split_twiddles, k - 1));
    /* Halve the int sums before storing (KISS's HALF_OF). When k == points / 2
     * both stores hit the same bin and the second wins, as in KISS. */
    store(output, k, make(opbridge_signal_shift_right((int32_t)sum.r + rotated.r, 1), opbridge_signal_shift_right((int32_t)sum.i + rotated.i, 1)));
    store(output, points - k,
          make(opbridge_signal_shift_right((int32_t)sum.r - rotated.r, 1), opbridge_signal_shift_right((int32_t)rotated.i - sum.i, 1)));
  }
}

int32_t opbridge_signal_rfft_int16(const opbridge_signal_rfft_plan *plan, const int16_t *input, int32_t input_length,
                                   int32_t frame_count, int16_t *work, int16_t *output) {
  int32_t frame;
  if (plan->fft_length < 4 || plan->fft_length % 2 != 0 || input_length < 1 || input_length > plan->fft_length) {
    return 1;
  }
  for (frame = 0; frame < frame_count; ++frame) {
    if (complex_fft(plan, input + frame * input_length, input_length, work) != 0) {
      return 1;
    }
#if OPBRIDGE_SIGNAL_RFFT_VARIANT
    if (opbridge_signal_rfft_variant_split(plan, work, output + frame * (plan->fft_length + 2))) {
      continue;
    }
#endif
    split_spectrum(plan, work, output + frame * (plan->fft_length + 2));
  }
  return 0;
}
