/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED with int16 activations and int8 weights, DSP variant for the Cortex-M4: the dot
 * products of opbridge_fully_connected_s16.c, two int16 x int16 products per SMLALD or SMLAD. */
#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_DSP

#include <arm_acle.h>
#include <string.h>

#include "cc/kernels/opbridge_fully_connected_s16_internal.h"

/* Four weights as two pairs of int16 (SXTB16: bytes 0 and 2, then 1 and 3), and four inputs paired
 * to match (PKHBT, PKHTB): (x0, x2) and (x1, x3). */
typedef struct {
  int32_t inputs_even;
  int32_t inputs_odd;
  int32_t weights_even;
  int32_t weights_odd;
} opbridge_pairs4;

static inline opbridge_pairs4 opbridge_load_pairs4(const int16_t *input, const int8_t *weights) {
  uint32_t x01;
  uint32_t x23;
  uint32_t w;
  memcpy(&x01, input, sizeof x01);
  memcpy(&x23, input + 2, sizeof x23);
  memcpy(&w, weights, sizeof w);
  const opbridge_pairs4 pairs = {
      (int32_t)((x01 & 0xFFFFu) | (x23 << 16)),
      (int32_t)((x01 >> 16) | (x23 & 0xFFFF0000u)),
      (int32_t)__sxtb16(w),
      (int32_t)__sxtb16((w >> 8) | (w << 24)), /* rotated right by 8: bytes 1 and 3 */
  };
  return pairs;
}

/* Each product fits 32 bits; SMLALD adds two of them into a 64-bit sum exactly. */
int64_t opbridge_dot_s16_s8_dsp(const int16_t *input, const int8_t *weights, int32_t depth) {
  int64_t sum = 0;
  int32_t d = 0;
  for (; d + 4 <= depth; d += 4) {
    const opbridge_pairs4 pairs = opbridge_load_pairs4(input + d, weights + d);
    sum = __smlald(pairs.inputs_even, pairs.weights_even, sum);
    sum = __smlald(pairs.inputs_odd, pairs.weights_odd, sum);
  }
  for (; d < depth; ++d) {
    sum += (int32_t)input[d] * (int32_t)weights[d];
  }
  return sum;
}

/* SMLAD's sum wraps modulo 2^32 (it only sets the Q flag): the wrapping int32 accumulator. */
uint32_t opbridge_dot_s16_s8_wrapping_dsp(const int16_t *input, const int8_t *weights, int32_t depth) {
  uint32_t sum = 0;
  int32_t d = 0;
  for (; d + 4 <= depth; d += 4) {
    const opbridge_pairs4 pairs = opbridge_load_pairs4(input + d, weights + d);
    sum = (uint32_t)__smlad(pairs.inputs_even, pairs.weights_even, (int32_t)sum);
    sum = (uint32_t)__smlad(pairs.inputs_odd, pairs.weights_odd, (int32_t)sum);
  }
  for (; d < depth; ++d) {
    sum += (uint32_t)((int32_t)input[d] * (int32_t)weights[d]);
  }
  return sum;
}

/* Bytes 1 and 3 of a word, sign-extended to an int16 pair (SXTB16 with its rotation). */
static inline int32_t opbridge_odd_weights(uint32_t word) {
  int32_t pair;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(pair) : "r"(word));
  return pair;
}

void opbridge_pair_s16_dsp(const int16_t *input, int32_t depth, int32_t *pairs) {
  for (int32_t d = 0; d + 4 <= depth; d += 4, pairs += 2) {
    uint32_t x01;
    uint32_t x23;
    memcpy(&x01, input + d, sizeof x01);
    memcpy(&x23, input + d + 2, sizeof x23);
    pairs[0] = (int32_t)((x01 & 0xFFFFu) | (x23 << 16));
    pairs[1] = (int32_t)((x01 >> 16) | (x23 & 0xFFFF0000u));
  }
}

/* Two products into each kind of sum: 64 bits exactly (SMLALD), or modulo 2^32 (SMLAD). */
static inline int64_t opbridge_mac_wide(int32_t pair, int32_t weights, int64_t sum) {
  return __smlald(pair, weights, sum);
}
static inline uint32_t opbridge_mac_wrapping(int32_t pair, int32_t weights, uint32_t sum) {
  return (uint32_t)__smlad(pair, weights, (int32_t)sum);
}

/* opbridge_dot2_s16_s8_dsp and its wrapping twin: SUM_T their sums, MAC their multiply-accumulate. */
#define OPBRIDGE_DOT2_S16_S8(name, SUM_T, MAC)                                                                   \
  void name(const int32_t *pairs, const int16_t *input, const int8_t *weights0, const int8_t *weights1,          \
            int32_t depth, SUM_T sums[2]) {                                                                      \
    SUM_T sum0 = 0;                                                                                              \
    SUM_T sum1 = 0;                                                                                              \
    int32_t d = 0;                                                                                               \
    for (; d + 4 <= depth; d += 4, pairs += 2) {                                                                 \
      uint32_t w0;                                                                                               \
      uint32_t w1;                                                                                               \
      memcpy(&w0, weights0 + d, sizeof w0);                                                                      \
      memcpy(&w1, weights1 + d, sizeof w1);                                                                      \
      sum0 = MAC(pairs[0], (int32_t)__sxtb16(w0), sum0);                                                         \
      sum0 = MAC(pairs[1], opbridge_odd_weights(w0), sum0);                                                      \
      sum1 = MAC(pairs[0], (int32_t)__sxtb16(w1), sum1);                                                         \
      sum1 = MAC(pairs[1], opbridge_odd_weights(w1), sum1);                                                      \
    }                                                                                                            \
    for (; d < depth; ++d) {                                                                                     \
      sum0 += (SUM_T)((int32_t)input[d] * (int32_t)weights0[d]);                                                 \
      sum1 += (SUM_T)((int32_t)input[d] * (int32_t)weights1[d]);                                                 \
    }                                                                                                            \
    sums[0] = sum0;                                                                                              \
    sums[1] = sum1;                                                                                              \
  }

OPBRIDGE_DOT2_S16_S8(opbridge_dot2_s16_s8_dsp, int64_t, opbridge_mac_wide)
OPBRIDGE_DOT2_S16_S8(opbridge_dot2_s16_s8_wrapping_dsp, uint32_t, opbridge_mac_wrapping)

#endif /* OPBRIDGE_KERNELS_DSP */
