/* SPDX-License-Identifier: Apache-2.0 */
/* TFLM's SignalRfft (int16): a real FFT bit-exact with TFLM's fixed-point
 * KISS FFT (v130, FIXED_POINT=16).
 *
 * The plan's tables depend only on fft_length and are generated at
 * conversion time (twiddles need cos/sin), so the kernel needs no libm. */
#ifndef OPBRIDGE_SIGNAL_RFFT_H_
#define OPBRIDGE_SIGNAL_RFFT_H_

#include <stdint.h>

typedef struct {
  /* Real samples per transform; even. The complex FFT has half as many points. */
  int32_t fft_length;
  int32_t stage_count;
  /* stage_count (radix, span) pairs, outermost stage first; radix is 2, 3, 4 or 5. */
  const int32_t *stages;
  /* Q15 complex twiddles (interleaved re, im) in the order the stages read them: stage by stage,
   * innermost (the first to run) first. A stage of radix p and span m has `stride` blocks
   * (fft_length / 2 / (p m)); it turns position k of leg q by w^(q k stride), w = exp(-2 pi i /
   * (fft_length / 2)) (KISS's table entry q k stride). Its entries: for radix 3 and 5 first the
   * roots w^(stride m) and w^(2 stride m); then, leg by leg (q = 1 .. p - 1), the twiddles of
   * positions k = 0 .. m - 1. Entry 0 of every leg (k = 0) is (32767, 0). */
  const int16_t *stage_twiddles;
  /* fft_length / 4 Q15 complex twiddles of the real-spectrum split step, interleaved. */
  const int16_t *split_twiddles;
  /* fft_length / 2 entries: the complex input sample that starts at each position (KISS's mixed-radix
   * digit reversal). With an innermost stage of radix p, entry p b + q is entry p b plus
   * q fft_length / (2 p): the fast variants read only entry p b of each first-stage block. */
  const uint16_t *input_order;
} opbridge_signal_rfft_plan;

/* Transforms `frame_count` frames of `input_length` samples (zero-padded to
 * fft_length) into fft_length / 2 + 1 complex bins each, written interleaved
 * (re, im) to `output` (frame_count * (fft_length + 2) values).
 * `work` holds fft_length int16 values. Returns nonzero on invalid sizes. */
int32_t opbridge_signal_rfft_int16(const opbridge_signal_rfft_plan *plan, const int16_t *input, int32_t input_length,
                                   int32_t frame_count, int16_t *work, int16_t *output);

#endif /* OPBRIDGE_SIGNAL_RFFT_H_ */
