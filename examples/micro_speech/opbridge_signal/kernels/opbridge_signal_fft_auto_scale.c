/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFftAutoScale, bit-exact with TFLM's FftAutoScale. */
#include "opbridge_signal_fft_auto_scale.h"
#include "opbridge_signal_integer.h"

/* TFLM's MaxAbs16, quirk included: the running peak is an int16, so
 * negating -32768 stores -32768, and from then on any larger sample (even a
 * negative one) replaces it. */
static int16_t peak_magnitude(const int16_t *input, int32_t count) {
  int16_t peak = 0;
  int32_t i;
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
  for (i = 0; i < count; ++i) {
    /* |input| << bits fits int32 (bits <= 14 when peak > 0); the store wraps as TFLM's does. */
    output[i] = opbridge_signal_wrap16((int32_t)input[i] * ((int32_t)1 << bits));
  }
  *scale_bits = bits;
  return 0;
}
