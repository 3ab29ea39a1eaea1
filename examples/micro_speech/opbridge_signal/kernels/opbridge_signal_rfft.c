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
 *   - the split step halves int sums before storing them. */
#include "opbridge_signal_rfft.h"
#include "opbridge_signal_integer.h"

#define Q15_MAX 32767
#define Q15_HALF_LSB 16384
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
 * q is scaled down and turned by exp(-2 pi i q k / (radix * span)), i.e.
 * table entry q * k * stride, before the small DFT across the legs. */
static void run_stage(int16_t *work, int32_t radix, int32_t span, int32_t stride, const int16_t *twiddles) {
  /* exp(-2 pi i / radix) and exp(-4 pi i / radix), for radices 3 and 5. */
  const q15_complex root1 = load(twiddles, stride * span);
  const q15_complex root2 = radix > 2 ? load(twiddles, 2 * stride * span) : root1;
  q15_complex legs[MAX_RADIX];
  int32_t block;
  for (block = 0; block < stride; ++block) {
    int16_t *const values = work + 2 * block * radix * span;
    int32_t k;
    for (k = 0; k < span; ++k) {
      int32_t q;
      legs[0] = scale_down(load(values, k), radix);
      for (q = 1; q < radix; ++q) {
        legs[q] = multiply(scale_down(load(values, k + q * span), radix), load(twiddles, q * k * stride));
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

#if OPBRIDGE_SIGNAL_HELIUM
/* A radix-4 stage, four butterflies per step, each vector four complex values (re, im
 * interleaved) with the same arithmetic as run_stage:
 *   - scale_down by 8191 in Q15: VQRDMULH.S16 is (2ab + 2^15) >> 16 = (ab + 2^14) >> 15, the
 *     product rounded as round_q15 does (it cannot saturate: |8191 a| < 2^28);
 *   - the twiddle product: VQRDMLSDH gives the real parts, round((a.r t.r - a.i t.i) / 2^15),
 *     VQRDMLADHX the imaginary ones, round((a.r t.i + a.i t.r) / 2^15), each sum of two products
 *     rounded once as in multiply (in range: scaled legs are at most 2^13 in magnitude, so no
 *     part reaches 2^14 and the saturating instructions never saturate);
 *   - dft4: VADD/VSUB.I16 wrap modulo 2^16 like the int16 stores, and VCADD by 270 and 90
 *     degrees is minus_i_times and plus_i_times.
 * Twiddles and, in the first stage (span 1), the legs are read with halfword gathers: the tables
 * and the work buffer are only halfword-aligned. */
static inline int16x8_t helium_twiddle_product(int16x8_t a, int16x8_t twiddle) {
  int16x8_t product = vqrdmlsdhq_s16(vdupq_n_s16(0), a, twiddle);
  return vqrdmladhxq_s16(product, a, twiddle);
}

/* The twiddle product where it can leave the int16 range (the split step's differences reach
 * 2^15): each part's two products summed in int32 and narrowed by VRSHRN, which rounds as
 * round_q15 does and wraps instead of saturating. */
static inline int16x8_t helium_twiddle_product_wrapping(int16x8_t a, int16x8_t twiddle) {
  const int16x8_t swapped = vrev32q_s16(a); /* (a.i, a.r) */
  const int32x4_t real = vsubq_s32(vmullbq_int_s16(a, twiddle), vmulltq_int_s16(a, twiddle));
  const int32x4_t imaginary = vaddq_s32(vmullbq_int_s16(swapped, twiddle), vmulltq_int_s16(swapped, twiddle));
  return vrshrntq_n_s32(vrshrnbq_n_s32(vdupq_n_s16(0), real, 15), imaginary, 15);
}

static inline void helium_dft4(int16x8_t *x0, int16x8_t *x1, int16x8_t *x2, int16x8_t *x3) {
  const int16x8_t even_sum = vaddq_s16(*x0, *x2);
  const int16x8_t even_difference = vsubq_s16(*x0, *x2);
  const int16x8_t odd_sum = vaddq_s16(*x1, *x3);
  const int16x8_t odd_difference = vsubq_s16(*x1, *x3);
  *x0 = vaddq_s16(even_sum, odd_sum);
  *x1 = vcaddq_rot270_s16(even_difference, odd_difference);
  *x2 = vsubq_s16(even_sum, odd_sum);
  *x3 = vcaddq_rot90_s16(even_difference, odd_difference);
}

/* 1 if the stage ran here; 0 for the caller's scalar loop (other shapes). */
static int32_t run_stage4_helium(int16_t *work, int32_t span, int32_t stride, const int16_t *twiddles) {
  const int16_t scale = Q15_MAX / 4;
  /* Halfword offsets of four consecutive complex values: 0, 1, 2, 3, ..., 6, 7. */
  const uint16x8_t lanes = vidupq_n_u16(0, 1);
  /* Each lane's complex index (lane / 2) and part (lane % 2). */
  const uint16x8_t complex_lane = vshrq_n_u16(lanes, 1);
  const uint16x8_t part = vandq_u16(lanes, vdupq_n_u16(1));
  if (span % 4 == 0) {
    /* Four consecutive k of one block: legs contiguous, twiddles at q * k * stride. */
    for (int32_t block = 0; block < stride; ++block) {
      int16_t *const values = work + 2 * block * 4 * span;
      for (int32_t k = 0; k < span; k += 4) {
        const uint16x8_t index = vmulq_n_u16(vaddq_n_u16(complex_lane, (uint16_t)k), (uint16_t)stride);
        int16x8_t x0 = vqrdmulhq_n_s16(vld1q_s16(values + 2 * k), scale);
        int16x8_t x1 = vqrdmulhq_n_s16(vld1q_s16(values + 2 * (k + span)), scale);
        int16x8_t x2 = vqrdmulhq_n_s16(vld1q_s16(values + 2 * (k + 2 * span)), scale);
        int16x8_t x3 = vqrdmulhq_n_s16(vld1q_s16(values + 2 * (k + 3 * span)), scale);
        x1 = helium_twiddle_product(x1, vldrhq_gather_shifted_offset_s16(twiddles, vaddq_u16(vshlq_n_u16(index, 1), part)));
        x2 = helium_twiddle_product(x2, vldrhq_gather_shifted_offset_s16(twiddles, vaddq_u16(vshlq_n_u16(index, 2), part)));
        x3 = helium_twiddle_product(
            x3, vldrhq_gather_shifted_offset_s16(twiddles, vaddq_u16(vmulq_n_u16(index, 6), part)));
        helium_dft4(&x0, &x1, &x2, &x3);
        vst1q_s16(values + 2 * k, x0);
        vst1q_s16(values + 2 * (k + span), x1);
        vst1q_s16(values + 2 * (k + 2 * span), x2);
        vst1q_s16(values + 2 * (k + 3 * span), x3);
      }
    }
    return 1;
  }
  if (span == 1 && stride % 4 == 0) {
    /* Four blocks of four adjacent legs (k = 0, twiddles all entry 0): leg q of block b is
     * complex value 4 b + q, gathered and scattered by halfword offsets 8 b + 2 q + part. */
    const uint32_t entry0 = (uint32_t)(uint16_t)twiddles[0] | (uint32_t)(uint16_t)twiddles[1] << 16;
    const int16x8_t twiddle = vreinterpretq_s16_u32(vdupq_n_u32(entry0));
    const uint16x8_t offsets0 = vaddq_u16(vmulq_n_u16(complex_lane, 8), part);
    const uint16x8_t offsets1 = vaddq_n_u16(offsets0, 2);
    const uint16x8_t offsets2 = vaddq_n_u16(offsets0, 4);
    const uint16x8_t offsets3 = vaddq_n_u16(offsets0, 6);
    for (int32_t block = 0; block < stride; block += 4) {
      int16_t *const values = work + 2 * 4 * block;
      int16x8_t x0 = vqrdmulhq_n_s16(vldrhq_gather_shifted_offset_s16(values, offsets0), scale);
      int16x8_t x1 = vqrdmulhq_n_s16(vldrhq_gather_shifted_offset_s16(values, offsets1), scale);
      int16x8_t x2 = vqrdmulhq_n_s16(vldrhq_gather_shifted_offset_s16(values, offsets2), scale);
      int16x8_t x3 = vqrdmulhq_n_s16(vldrhq_gather_shifted_offset_s16(values, offsets3), scale);
      x1 = helium_twiddle_product(x1, twiddle);
      x2 = helium_twiddle_product(x2, twiddle);
      x3 = helium_twiddle_product(x3, twiddle);
      helium_dft4(&x0, &x1, &x2, &x3);
      vstrhq_scatter_shifted_offset_s16(values, offsets0, x0);
      vstrhq_scatter_shifted_offset_s16(values, offsets1, x1);
      vstrhq_scatter_shifted_offset_s16(values, offsets2, x2);
      vstrhq_scatter_shifted_offset_s16(values, offsets3, x3);
    }
    return 1;
  }
  return 0;
}
#endif

#if OPBRIDGE_SIGNAL_HELIUM
/* KISS's leaf copies, four complex values at a time: each lane's halfword offset is twice its
 * position's input_order entry plus its part, and lanes past input_length are zero (the gather is
 * predicated, which zeroes them). 1 if done; 0 for the scalar loop. */
static int32_t leaves_helium(const opbridge_signal_rfft_plan *plan, const int16_t *input, int32_t input_length,
                             int16_t *work) {
  const int32_t points = plan->fft_length / 2;
  if (points % 4 != 0 || plan->fft_length > 0xFFFF) {
    return 0;
  }
  const uint16x8_t lanes = vidupq_n_u16(0, 1);
  const uint16x8_t complex_lane = vshrq_n_u16(lanes, 1);
  const uint16x8_t part = vandq_u16(lanes, vdupq_n_u16(1));
  for (int32_t position = 0; position < points; position += 4) {
    const uint16x8_t order = vldrhq_gather_shifted_offset_u16(plan->input_order + position, complex_lane);
    const uint16x8_t sample = vaddq_u16(vshlq_n_u16(order, 1), part);
    const mve_pred16_t inside = vcmphiq_u16(vdupq_n_u16((uint16_t)input_length), sample);
    vst1q_s16(work + 2 * position, vldrhq_gather_shifted_offset_z_s16(input, sample, inside));
  }
  return 1;
}

/* KISS's split step, four bins k at a time: the mirrored bins points - k are gathered in
 * descending order and conjugated by a multiply by (1, -1) (wrapping, as the negation stored to
 * int16 does), both halves scaled by 16383 (VQRDMULH), the difference turned by the split
 * twiddles (VQRDMLSDH/VQRDMLADHX), and each output halved from the int sum by VHADD/VHSUB (the
 * floor of the exact sum, as shift_right of the int32 does). The mirrored outputs are scattered
 * after the direct ones, so that bin points / 2, written by both, keeps the mirrored value as in
 * KISS. 1 if done; 0 for the scalar loop. */
static int32_t split_spectrum_helium(const opbridge_signal_rfft_plan *plan, const int16_t *work, int16_t *output) {
  const int32_t points = plan->fft_length / 2;
  if ((points / 2) % 4 != 0 || plan->fft_length > 0x7FFF) {
    return 0;
  }
  const int16_t scale = Q15_MAX / 2;
  const q15_complex dc = scale_down(load(work, 0), 2);
  store(output, 0, make((int32_t)dc.r + dc.i, 0));
  store(output, points, make((int32_t)dc.r - dc.i, 0));
  const uint16x8_t lanes = vidupq_n_u16(0, 1);
  const uint16x8_t complex_lane = vshrq_n_u16(lanes, 1);
  const uint16x8_t part = vandq_u16(lanes, vdupq_n_u16(1));
  const mve_pred16_t real_lanes = vcmpeqq_n_u16(part, 0);
  const int16x8_t conjugate = vsubq_s16(vdupq_n_s16(1), vreinterpretq_s16_u16(vshlq_n_u16(part, 1)));
  for (int32_t k = 1; k <= points / 2; k += 4) {
    /* Halfword offsets of bins points - k - lane, relative to bin points - k - 3. */
    const uint16x8_t mirrored_offsets = vaddq_u16(vshlq_n_u16(vsubq_u16(vdupq_n_u16(3), complex_lane), 1), part);
    const int16x8_t forward = vqrdmulhq_n_s16(vld1q_s16(work + 2 * k), scale);
    const int16x8_t mirrored_raw = vldrhq_gather_shifted_offset_s16(work + 2 * (points - k - 3), mirrored_offsets);
    const int16x8_t mirrored = vqrdmulhq_n_s16(vmulq_s16(mirrored_raw, conjugate), scale);
    const int16x8_t sum = vaddq_s16(forward, mirrored);
    const int16x8_t rotated =
        helium_twiddle_product_wrapping(vsubq_s16(forward, mirrored), vld1q_s16(plan->split_twiddles + 2 * (k - 1)));
    vst1q_s16(output + 2 * k, vhaddq_s16(sum, rotated));
    /* Real parts (sum - rotated) / 2, imaginary parts (rotated - sum) / 2. */
    const int16x8_t back = vpselq_s16(vhsubq_s16(sum, rotated), vhsubq_s16(rotated, sum), real_lanes);
    vstrhq_scatter_shifted_offset_s16(output + 2 * (points - k - 3), mirrored_offsets, back);
  }
  return 1;
}
#endif

/* KISS's kiss_fft over the input's (even, odd) sample pairs, into `work`. */
static int32_t complex_fft(const opbridge_signal_rfft_plan *plan, const int16_t *input, int32_t input_length,
                           int16_t *work) {
  const int32_t points = plan->fft_length / 2;
  int32_t position;
  int32_t stage;
  int32_t stride = points;
  /* KISS's leaf copies, with the zero padding TFLM applies past input_length. */
#if OPBRIDGE_SIGNAL_HELIUM
  position = leaves_helium(plan, input, input_length, work) ? points : 0;
#else
  position = 0;
#endif
  for (; position < points; ++position) {
    const int32_t sample = 2 * (int32_t)plan->input_order[position];
    work[2 * position] = sample < input_length ? input[sample] : 0;
    work[2 * position + 1] = sample + 1 < input_length ? input[sample + 1] : 0;
  }
  /* Innermost stage first, as KISS's recursion unwinds. */
  for (stage = plan->stage_count - 1; stage >= 0; --stage) {
    const int32_t radix = plan->stages[2 * stage];
    const int32_t span = plan->stages[2 * stage + 1];
    if (radix < 2 || radix > MAX_RADIX) {
      return 1; /* TFLM cannot run a generic-radix stage either */
    }
    stride /= radix;
#if OPBRIDGE_SIGNAL_HELIUM
    if (radix == 4 && run_stage4_helium(work, span, stride, plan->twiddles)) {
      continue;
    }
#endif
    run_stage(work, radix, span, stride, plan->twiddles);
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
#if OPBRIDGE_SIGNAL_HELIUM
    if (split_spectrum_helium(plan, work, output + frame * (plan->fft_length + 2))) {
      continue;
    }
#endif
    split_spectrum(plan, work, output + frame * (plan->fft_length + 2));
  }
  return 0;
}
