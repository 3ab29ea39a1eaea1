/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFftAutoScale, bit-exact with TFLM's FftAutoScale. */
#include "opbridge_signal_fft_auto_scale.h"
#include "opbridge_signal_dsp_internal.h"
#include "opbridge_signal_integer.h"

/* TFLM's MaxAbs16, quirk included: the running peak is an int16, so
 * negating -32768 stores -32768, and from then on any larger sample (even a
 * negative one) replaces it. */
static int16_t peak_magnitude(const int16_t *input, int32_t count) {
  int16_t peak = 0;
  int32_t i;
#if OPBRIDGE_KERNELS_DSP
  {
    /* Without -32768 the running peak is max |value|, and only its bit length matters: the OR of
     * the |value|s has the same (opbridge_signal_fft_auto_scale_dsp.c). With it, the loop below. */
    const uint32_t magnitudes = opbridge_signal_fft_auto_scale_magnitudes_dsp(input, count);
    if (magnitudes < 0x8000u) {
      return (int16_t)magnitudes;
    }
  }
#endif
#if OPBRIDGE_KERNELS_HELIUM
  {
    /* Without -32768 the running peak is max |value|: the largest and the smallest value, eight
     * lanes at a time. With it (the quirk above), the loop below runs from the start. */
    int16x8_t largest = vdupq_n_s16(0);
    int16x8_t smallest = vdupq_n_s16(0);
    for (i = 0; i + 8 <= count; i += 8) {
      const int16x8_t x = vld1q_s16(input + i);
      largest = vmaxq_s16(largest, x);
      smallest = vminq_s16(smallest, x);
    }
    int32_t high = vmaxvq_s16(0, largest);
    int32_t low = vminvq_s16(0, smallest);
    for (; i < count; ++i) {
      high = input[i] > high ? input[i] : high;
      low = input[i] < low ? input[i] : low;
    }
    if (low > INT16_MIN) {
      return (int16_t)(high > -low ? high : -low);
    }
  }
#endif
  for (i = 0; i < count; ++i) {
    const int16_t value = input[i];
    if (value > peak) {
      peak = value;
    } else if (-(int32_t)value > peak) {
      peak = opbridge_signal_wrap16(-(int32_t)value);
    }
  }
  return peak;
}

int32_t opbridge_signal_fft_auto_scale(const int16_t *input, int32_t count, int16_t *output, int32_t *scale_bits) {
  const int16_t peak = peak_magnitude(input, count);
  int32_t bits = 0;
  int32_t i;
  if (count < 0) {
    return 1;
  }
  /* 15 - bit length of the peak. A zero or negative peak gives 0, as in TFLM
   * built with GCC or Clang (MostSignificantBit32(0) is 32 there, and a
   * negative int16 becomes a huge uint32). */
  if (peak > 0) {
    int32_t length = 0;
    int32_t rest = peak;
    while (rest != 0) {
      rest >>= 1;
      ++length;
    }
    bits = 15 - length;
  }
  i = 0;
#if OPBRIDGE_KERNELS_DSP
  /* Two samples a word (opbridge_signal_fft_auto_scale_dsp.c). */
  opbridge_signal_fft_auto_scale_shift_dsp(input, count, bits, output);
  i = count;
#endif
#if OPBRIDGE_KERNELS_HELIUM
  /* VSHL.I16 wraps as the int16 store does. */
  for (; i + 8 <= count; i += 8) {
    vst1q_s16(output + i, vshlq_r_s16(vld1q_s16(input + i), bits));
  }
#endif
  for (; i < count; ++i) {
    /* |input| << bits fits int32 (bits <= 14 when peak > 0); the store wraps as TFLM's does. */
    output[i] = opbridge_signal_wrap16((int32_t)input[i] * ((int32_t)1 << bits));
  }
  *scale_bits = bits;
  return 0;
}
