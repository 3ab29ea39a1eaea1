/* SPDX-License-Identifier: Apache-2.0 */
/* The dot products with offsets that the recurrent kernels' matrix products are made of
 * (UNIDIRECTIONAL_SEQUENCE_LSTM's int8 gates, SVDF's features and time weights: opbridge_lstm.c,
 * opbridge_svdf.c), in this build's instruction-set variant (opbridge_kernel_variant.h). Not part
 * of the API. */
#ifndef OPBRIDGE_DOT_S8_INTERNAL_H_
#define OPBRIDGE_DOT_S8_INTERNAL_H_

#include <stdint.h>
#include <string.h>

#include "cc/kernels/opbridge_kernel_variant.h"

#if OPBRIDGE_KERNELS_HELIUM
#include <arm_mve.h>
#elif OPBRIDGE_KERNELS_DSP
#include <arm_acle.h>
#endif

/* sum((row[d] + row_offset) * (weights[d] + weight_offset)) for d < depth, modulo 2^32 (the int32 sum
 * of TFLite's kernels, whose products never overflow it in practice; wrapping keeps C defined).
 * Helium: 16 products a step (VMLADAVA) with the row's and the weights' sums (VADDVA) for the
 * offsets' terms, the last step lane-predicated. DSP: 4 a step, both operands widened to int16
 * pairs with their offsets added (each within int16: at most 255 in magnitude), two SMLAD. */
static inline int32_t opbridge_dot_s8_offsets(const int8_t *row, int32_t row_offset, const int8_t *weights,
                                              int32_t weight_offset, int32_t depth) {
#if OPBRIDGE_KERNELS_HELIUM
  int32_t products = 0, row_sum = 0, weight_sum = 0;
  for (int32_t d = 0; d < depth; d += 16) {
    const mve_pred16_t lanes = vctp8q((uint32_t)(depth - d));
    const int8x16_t x = vldrbq_z_s8(row + d, lanes);
    const int8x16_t w = vldrbq_z_s8(weights + d, lanes);
    products = vmladavaq_s8(products, x, w);
    row_sum = vaddvaq_s8(row_sum, x);
    weight_sum = vaddvaq_s8(weight_sum, w);
  }
  return (int32_t)((uint32_t)products + (uint32_t)row_offset * (uint32_t)weight_sum +
                   (uint32_t)weight_offset * (uint32_t)row_sum +
                   (uint32_t)depth * (uint32_t)row_offset * (uint32_t)weight_offset);
#else
  uint32_t acc = 0u;
  int32_t d = 0;
#if OPBRIDGE_KERNELS_DSP
  /* TFLite's offsets are negated zero points; others would not keep the sums within int16. */
  const int32_t pairs = row_offset >= -255 && row_offset <= 255 && weight_offset >= -255 && weight_offset <= 255;
  const int16x2_t row_offsets = (int16x2_t)((uint32_t)(uint16_t)row_offset * 0x00010001u);
  const int16x2_t weight_offsets = (int16x2_t)((uint32_t)(uint16_t)weight_offset * 0x00010001u);
  for (; pairs && d + 4 <= depth; d += 4) {
    uint32_t x, w;
    memcpy(&x, row + d, sizeof(x));
    memcpy(&w, weights + d, sizeof(w));
    int16x2_t x_odd, w_odd;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(x_odd) : "r"(x));
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(w_odd) : "r"(w));
    acc = (uint32_t)__smlad(__sadd16(__sxtb16(x), row_offsets), __sadd16(__sxtb16(w), weight_offsets), (int32_t)acc);
    acc = (uint32_t)__smlad(__sadd16(x_odd, row_offsets), __sadd16(w_odd, weight_offsets), (int32_t)acc);
  }
#endif
  for (; d < depth; ++d) {
    acc += (uint32_t)((int32_t)row[d] + row_offset) * (uint32_t)((int32_t)weights[d] + weight_offset);
  }
  return (int32_t)acc;
#endif
}

/* sum((row[d] - zero_point) * weights[d]) for d < depth over int16 operands, modulo 2^32 (SVDF's
 * time weights against its int16 memory). With a zero point of 0 (TFLite's converter writes int16
 * activations symmetric): Helium 8 products a step (VMLADAVA.S16, the last step lane-predicated),
 * DSP 2 (SMLAD of the int16 pairs as they lie in memory); otherwise one at a time. */
static inline int32_t opbridge_dot_s16_zero_point(const int16_t *row, int32_t zero_point, const int16_t *weights,
                                                  int32_t depth) {
  uint32_t acc = 0u;
  int32_t d = 0;
  if (zero_point == 0) {
#if OPBRIDGE_KERNELS_HELIUM
    int32_t products = 0;
    for (; d < depth; d += 8) {
      const mve_pred16_t lanes = vctp16q((uint32_t)(depth - d));
      products = vmladavaq_s16(products, vldrhq_z_s16(row + d, lanes), vldrhq_z_s16(weights + d, lanes));
    }
    return products;
#elif OPBRIDGE_KERNELS_DSP
    for (; d + 2 <= depth; d += 2) {
      int16x2_t m, t;
      memcpy(&m, row + d, sizeof(m));
      memcpy(&t, weights + d, sizeof(t));
      acc = (uint32_t)__smlad(m, t, (int32_t)acc);
    }
#endif
  }
  for (; d < depth; ++d) {
    acc += (uint32_t)((int32_t)row[d] - zero_point) * (uint32_t)(int32_t)weights[d];
  }
  return (int32_t)acc;
}

#endif /* OPBRIDGE_DOT_S8_INTERNAL_H_ */
