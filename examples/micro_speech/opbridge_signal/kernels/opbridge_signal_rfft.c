/* SignalRfft (int16), bit-exact with TFLM's fixed-point KISS FFT.
 *
 * Same arithmetic as KISS with FIXED_POINT=16, organised differently: KISS
 * recurses; here the input is gathered in digit-reversed order once and the
 * stages run innermost first over all their blocks, which yields the same
 * values because the blocks of a stage are disjoint. What must match KISS
 * exactly, value by value:
 *   - every stage first scales its inputs by floor(32767 / radix) in Q15;
 *   - every Q15 product is rounded by adding 2^14 and shifting right by 15;
 *   - every value stored is an int16 (sums wrap modulo 2^16);
 *   - the split step halves int sums before storing them. */
#include "opbridge_signal_rfft.h"

#define Q15_MAX 32767
#define Q15_HALF_LSB 16384

typedef struct {
  int16_t r;
  int16_t i;
} q15_complex;

/* Keeps the low 16 bits as two's complement: what storing an int into an
 * int16 does in KISS (gcc and clang wrap); written out because C99 leaves
 * the narrowing conversion implementation-defined. */
static int16_t wrap16(int32_t value) {
  int32_t low = (int32_t)((uint32_t)value & 0xFFFFu);
  return (int16_t)(low >= 0x8000 ? low - 0x10000 : low);
}

/* Arithmetic (flooring) right shift, written out because C99 leaves >> of
 * negative values implementation-defined. Compiles to one ASR. */
static int32_t shift_right(int32_t value, int32_t bits) {
  return value >= 0 ? value >> bits : ~(~value >> bits);
}

static int16_t round_q15(int32_t product) { return wrap16(shift_right(product + Q15_HALF_LSB, 15)); }

static q15_complex make(int32_t r, int32_t i) {
  q15_complex result;
  result.r = wrap16(r);
  result.i = wrap16(i);
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

/* KISS's C_MUL: both products summed in int32, then one rounding. */
static q15_complex multiply(q15_complex a, q15_complex b) {
  q15_complex result;
  result.r = round_q15((int32_t)a.r * b.r - (int32_t)a.i * b.i);
  result.i = round_q15((int32_t)a.r * b.i + (int32_t)a.i * b.r);
  return result;
}

/* KISS's C_FIXDIV: keeps the stage from overflowing; not an exact division. */
static q15_complex scale_down(q15_complex a, int32_t radix) {
  const int32_t factor = Q15_MAX / radix;
  q15_complex result;
  result.r = round_q15((int32_t)a.r * factor);
  result.i = round_q15((int32_t)a.i * factor);
  return result;
}

static int16_t scalar_multiply(int16_t a, int16_t b) { return round_q15((int32_t)a * b); }

static void butterfly2(int16_t *block, int32_t span, int32_t stride, const int16_t *twiddles) {
  int32_t k;
  for (k = 0; k < span; ++k) {
    const q15_complex first = scale_down(load(block, k), 2);
    const q15_complex rotated = multiply(scale_down(load(block, k + span), 2), load(twiddles, k * stride));
    store(block, k + span, subtract(first, rotated));
    store(block, k, add(first, rotated));
  }
}

static void butterfly3(int16_t *block, int32_t span, int32_t stride, const int16_t *twiddles) {
  /* Imaginary part of exp(-2 pi i / 3). */
  const int16_t epi3_imag = load(twiddles, stride * span).i;
  int32_t k;
  for (k = 0; k < span; ++k) {
    const q15_complex leg0 = scale_down(load(block, k), 3);
    const q15_complex leg1 = scale_down(load(block, k + span), 3);
    const q15_complex leg2 = scale_down(load(block, k + 2 * span), 3);
    const q15_complex s1 = multiply(leg1, load(twiddles, k * stride));
    const q15_complex s2 = multiply(leg2, load(twiddles, 2 * k * stride));
    const q15_complex sum = add(s1, s2);
    q15_complex difference = subtract(s1, s2);
    /* Half of an int16 value, by arithmetic shift. */
    const q15_complex middle = make(leg0.r - shift_right(sum.r, 1), leg0.i - shift_right(sum.i, 1));
    difference.r = scalar_multiply(difference.r, epi3_imag);
    difference.i = scalar_multiply(difference.i, epi3_imag);
    store(block, k, add(leg0, sum));
    store(block, k + 2 * span, make((int32_t)middle.r + difference.i, (int32_t)middle.i - difference.r));
    store(block, k + span, make((int32_t)middle.r - difference.i, (int32_t)middle.i + difference.r));
  }
}

static void butterfly4(int16_t *block, int32_t span, int32_t stride, const int16_t *twiddles) {
  int32_t k;
  for (k = 0; k < span; ++k) {
    q15_complex leg0 = scale_down(load(block, k), 4);
    const q15_complex leg1 = scale_down(load(block, k + span), 4);
    const q15_complex leg2 = scale_down(load(block, k + 2 * span), 4);
    const q15_complex leg3 = scale_down(load(block, k + 3 * span), 4);
    const q15_complex s0 = multiply(leg1, load(twiddles, k * stride));
    const q15_complex s1 = multiply(leg2, load(twiddles, 2 * k * stride));
    const q15_complex s2 = multiply(leg3, load(twiddles, 3 * k * stride));
    const q15_complex s5 = subtract(leg0, s1);
    q15_complex s3;
    q15_complex s4;
    leg0 = add(leg0, s1);
    s3 = add(s0, s2);
    s4 = subtract(s0, s2);
    store(block, k + 2 * span, subtract(leg0, s3));
    store(block, k, add(leg0, s3));
    /* Forward transform: s4 rotated by -i. */
    store(block, k + span, make((int32_t)s5.r + s4.i, (int32_t)s5.i - s4.r));
    store(block, k + 3 * span, make((int32_t)s5.r - s4.i, (int32_t)s5.i + s4.r));
  }
}

static void butterfly5(int16_t *block, int32_t span, int32_t stride, const int16_t *twiddles) {
  const q15_complex ya = load(twiddles, stride * span);     /* exp(-2 pi i / 5) */
  const q15_complex yb = load(twiddles, 2 * stride * span); /* exp(-4 pi i / 5) */
  int32_t u;
  for (u = 0; u < span; ++u) {
    const q15_complex leg0 = scale_down(load(block, u), 5);
    const q15_complex s1 = multiply(scale_down(load(block, u + span), 5), load(twiddles, u * stride));
    const q15_complex s2 = multiply(scale_down(load(block, u + 2 * span), 5), load(twiddles, 2 * u * stride));
    const q15_complex s3 = multiply(scale_down(load(block, u + 3 * span), 5), load(twiddles, 3 * u * stride));
    const q15_complex s4 = multiply(scale_down(load(block, u + 4 * span), 5), load(twiddles, 4 * u * stride));
    const q15_complex s7 = add(s1, s4);
    const q15_complex s10 = subtract(s1, s4);
    const q15_complex s8 = add(s2, s3);
    const q15_complex s9 = subtract(s2, s3);
    /* Each Q15 product below is rounded to int16 on its own, as KISS's S_MUL is. */
    const q15_complex s5 = make((int32_t)leg0.r + scalar_multiply(s7.r, ya.r) + scalar_multiply(s8.r, yb.r),
                                (int32_t)leg0.i + scalar_multiply(s7.i, ya.r) + scalar_multiply(s8.i, yb.r));
    const q15_complex s6 = make((int32_t)scalar_multiply(s10.i, ya.i) + scalar_multiply(s9.i, yb.i),
                                -(int32_t)scalar_multiply(s10.r, ya.i) - scalar_multiply(s9.r, yb.i));
    const q15_complex s11 = make((int32_t)leg0.r + scalar_multiply(s7.r, yb.r) + scalar_multiply(s8.r, ya.r),
                                 (int32_t)leg0.i + scalar_multiply(s7.i, yb.r) + scalar_multiply(s8.i, ya.r));
    const q15_complex s12 = make(-(int32_t)scalar_multiply(s10.i, yb.i) + scalar_multiply(s9.i, ya.i),
                                 (int32_t)scalar_multiply(s10.r, yb.i) - scalar_multiply(s9.r, ya.i));
    store(block, u, make((int32_t)leg0.r + s7.r + s8.r, (int32_t)leg0.i + s7.i + s8.i));
    store(block, u + span, subtract(s5, s6));
    store(block, u + 4 * span, add(s5, s6));
    store(block, u + 2 * span, add(s11, s12));
    store(block, u + 3 * span, subtract(s11, s12));
  }
}

/* KISS's kiss_fft over the input's (even, odd) sample pairs, into `work`. */
static int32_t complex_fft(const opbridge_signal_rfft_plan *plan, const int16_t *input, int32_t input_length,
                           int16_t *work) {
  const int32_t points = plan->fft_length / 2;
  int32_t position;
  int32_t stage;
  int32_t stride = points;
  /* KISS's leaf copies, with the zero padding TFLM applies past input_length. */
  for (position = 0; position < points; ++position) {
    const int32_t sample = 2 * (int32_t)plan->input_order[position];
    work[2 * position] = sample < input_length ? input[sample] : 0;
    work[2 * position + 1] = sample + 1 < input_length ? input[sample + 1] : 0;
  }
  /* Innermost stage first, as KISS's recursion unwinds. */
  for (stage = plan->stage_count - 1; stage >= 0; --stage) {
    const int32_t radix = plan->stages[2 * stage];
    const int32_t span = plan->stages[2 * stage + 1];
    int32_t block;
    stride /= radix;
    for (block = 0; block < stride; ++block) {
      int16_t *const values = work + 2 * block * radix * span;
      switch (radix) {
        case 2: butterfly2(values, span, stride, plan->twiddles); break;
        case 3: butterfly3(values, span, stride, plan->twiddles); break;
        case 4: butterfly4(values, span, stride, plan->twiddles); break;
        case 5: butterfly5(values, span, stride, plan->twiddles); break;
        default: return 1; /* TFLM's KISS cannot run a generic radix either */
      }
    }
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
    store(output, k, make(shift_right((int32_t)sum.r + rotated.r, 1), shift_right((int32_t)sum.i + rotated.i, 1)));
    store(output, points - k,
          make(shift_right((int32_t)sum.r - rotated.r, 1), shift_right((int32_t)rotated.i - sum.i, 1)));
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
    split_spectrum(plan, work, output + frame * (plan->fft_length + 2));
  }
  return 0;
}
