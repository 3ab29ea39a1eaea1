/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the int8 kernels' implementations (not part of the API). */
#ifndef OPBRIDGE_KERNELS_INTERNAL_H_
#define OPBRIDGE_KERNELS_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernel_variant.h"
#include "cc/kernels/opbridge_kernels_s8.h"
#if OPBRIDGE_KERNELS_HELIUM
#include <arm_mve.h>
#endif

static inline int8_t opbridge_clamp_s8(int32_t value, int32_t minimum, int32_t maximum) {
  if (value < minimum) {
    value = minimum;
  }
  if (value > maximum) {
    value = maximum;
  }
  return (int8_t)value;
}

/* The nearest whole number to `value`, halves to even; |value| < 2^23 (callers saturate first).
 * Never rintf(): it would depend on the FPU's rounding mode and need libm. The Helium variant's
 * cores (Armv8.1-M with floating point) convert with VCVTN, whose rounding (to nearest, ties to even)
 * is in the instruction, not in FPSCR; elsewhere the rounding is written out. */
static inline int32_t opbridge_round_half_to_even(float value) {
#if OPBRIDGE_KERNELS_HELIUM && defined(__ARM_FP) && defined(__GNUC__)
  int32_t rounded;
  __asm__("vcvtn.s32.f32 %1, %1\n\tvmov %0, %1" : "=r"(rounded), "+t"(value));
  return rounded;
#else
  int32_t whole = (int32_t)value; /* toward zero */
  const float fraction = value - (float)whole; /* exact: value and whole share the exponent range */
  const int32_t odd = whole % 2 != 0;
  if (fraction > 0.5f || (fraction == 0.5f && odd)) {
    whole += 1;
  } else if (fraction < -0.5f || (fraction == -0.5f && odd)) {
    whole -= 1;
  }
  return whole;
#endif
}

/* 1 if `requantization` has one parameter set, per tensor or one per channel. */
static inline int32_t opbridge_requantization_valid(const opbridge_requantization *requantization,
                                                    int32_t channels) {
  const int32_t fixed_point = requantization->multipliers != NULL && requantization->shifts != NULL;
  return (requantization->count == 1 || requantization->count == channels) &&
         (fixed_point || requantization->scales != NULL);
}

/* acc rescaled by channel `channel`'s multiplier (or float scale), plus the output offset, clamped. */
static inline int8_t opbridge_requantize_channel_s8(int32_t acc, const opbridge_requantization *requantization,
                                            int32_t channel, int32_t output_offset, int32_t activation_min,
                                            int32_t activation_max) {
  const int32_t index = requantization->count == 1 ? 0 : channel;
  if (requantization->scales != NULL) {
    /* ONNX: saturate the float product to the int8 range around the zero point, then round. */
    const float low = (float)(-128 - output_offset);
    const float high = (float)(127 - output_offset);
    float scaled = (float)acc * requantization->scales[index];
    scaled = scaled < low ? low : (scaled > high ? high : scaled);
    return opbridge_clamp_s8(opbridge_round_half_to_even(scaled) + output_offset, activation_min, activation_max);
  }
  const int32_t scaled = opbridge_multiply_by_quantized_multiplier(acc, requantization->multipliers[index],
                                                                   requantization->shifts[index]);
  return opbridge_clamp_s8(scaled + output_offset, activation_min, activation_max);
}

static inline int32_t opbridge_dims_valid(const opbridge_dims *dims) {
  return dims->batches > 0 && dims->height > 0 && dims->width > 0 && dims->channels > 0;
}

/* 1 if every size of a 4-D output shape is >= 0. */
static inline int32_t opbridge_shape_4d_valid(const int32_t output_shape[4]) {
  for (int32_t axis = 0; axis < 4; ++axis) {
    if (output_shape[axis] < 0) {
      return 0;
    }
  }
  return 1;
}

/* Visits the 4-D output of a broadcasting binary operator in order (BROADCAST has
 * output_shape, input1_strides and input2_strides); `a` and `b` are the input elements,
 * read as ELEMENT (int32_t for the integer kernels, float for the float32 ones). */
#define OPBRIDGE_BROADCAST_LOOP(ELEMENT, BROADCAST, INPUT1, INPUT2, OUTPUT, EXPRESSION)  \
  do {                                                                                   \
    /* Shape and strides in locals: the output (often int32, like them) could alias     \
     * the parameters for all the compiler knows, which would reload them per element. */ \
    const int32_t n0_ = (BROADCAST)->output_shape[0], n1_ = (BROADCAST)->output_shape[1]; \
    const int32_t n2_ = (BROADCAST)->output_shape[2], n3_ = (BROADCAST)->output_shape[3]; \
    const int32_t *s1_ = (BROADCAST)->input1_strides;                                    \
    const int32_t *s2_ = (BROADCAST)->input2_strides;                                    \
    const int32_t a0_ = s1_[0], a1_ = s1_[1], a2_ = s1_[2], a3_ = s1_[3];                \
    const int32_t b0_ = s2_[0], b1_ = s2_[1], b2_ = s2_[2], b3_ = s2_[3];                \
    int32_t out_ = 0;                                                                    \
    for (int32_t i0 = 0; i0 < n0_; ++i0) {                                               \
      for (int32_t i1 = 0; i1 < n1_; ++i1) {                                             \
        for (int32_t i2 = 0; i2 < n2_; ++i2) {                                           \
          int32_t x1_ = i0 * a0_ + i1 * a1_ + i2 * a2_;                                  \
          int32_t x2_ = i0 * b0_ + i1 * b1_ + i2 * b2_;                                  \
          for (int32_t i3 = 0; i3 < n3_; ++i3, x1_ += a3_, x2_ += b3_) {                 \
            const ELEMENT a = (INPUT1)[x1_];                                             \
            const ELEMENT b = (INPUT2)[x2_];                                             \
            (OUTPUT)[out_ + i3] = (EXPRESSION);                                          \
          }                                                                              \
          out_ += n3_;                                                                   \
        }                                                                                \
      }                                                                                  \
    }                                                                                    \
  } while (0)

/* Adds each element of the row-major 4-D INPUT of shape SHAPE to ACCUMULATORS[o], where o is
 * the row-major index over the axes that are kept (REDUCE[axis] != 0 reduces an axis), in
 * input order: MEAN's sums (int8 and float32 add in the same order as their references). */
#define OPBRIDGE_REDUCE_SUM_4D(SHAPE, REDUCE, INPUT, ACCUMULATORS) \
  do {                                                             \
    const int32_t *shape_ = (SHAPE);                               \
    const int32_t *reduce_ = (REDUCE);                             \
    int32_t in_ = 0;                                               \
    for (int32_t i0 = 0; i0 < shape_[0]; ++i0) {                   \
      for (int32_t i1 = 0; i1 < shape_[1]; ++i1) {                 \
        for (int32_t i2 = 0; i2 < shape_[2]; ++i2) {               \
          for (int32_t i3 = 0; i3 < shape_[3]; ++i3) {             \
            int32_t o_ = 0;                                        \
            o_ = reduce_[0] ? o_ : o_ * shape_[0] + i0;            \
            o_ = reduce_[1] ? o_ : o_ * shape_[1] + i1;            \
            o_ = reduce_[2] ? o_ : o_ * shape_[2] + i2;            \
            o_ = reduce_[3] ? o_ : o_ * shape_[3] + i3;            \
            (ACCUMULATORS)[o_] += (INPUT)[in_++];                  \
          }                                                        \
        }                                                          \
      }                                                            \
    }                                                              \
  } while (0)

/* Copies `bytes` bytes between buffers that do not overlap (STRIDED_SLICE's rows, CAST between integers
 * of one width). newlib's memcpy, built for size, moves a word in about three instructions; Helium moves
 * 16 bytes a step (predicated loads and stores, so any length and alignment). */
static inline void opbridge_copy_bytes(void *target, const void *source, size_t bytes) {
#if OPBRIDGE_KERNELS_HELIUM
  uint8_t *to = (uint8_t *)target;
  const uint8_t *from = (const uint8_t *)source;
  /* A tail-predicated loop (WLSTP/LETP, none for 0 bytes): a load and a store per 16 bytes, the last step's
   * missing lanes left out. In assembly: GCC 12 spends about five instructions on each step's predicate. */
  __asm__ volatile("   wlstp.8  lr, %[bytes], 2f\n"
                   "1: vldrb.u8 q0, [%[from]], #16\n"
                   "   vstrb.8  q0, [%[to]], #16\n"
                   "   letp     lr, 1b\n"
                   "2:\n"
                   : [from] "+r"(from), [to] "+r"(to)
                   : [bytes] "r"(bytes)
                   : "q0", "lr", "memory");
#else
  memcpy(target, source, bytes);
#endif
}

/* sums[c] += image[p * channels + c] for every position p < positions and channel c (MEAN's spatial
 * sums), Helium variant for the Cortex-M55 (opbridge_mean_s8_helium.c); opbridge_elementwise_s8.c's
 * C loop elsewhere. */
#if OPBRIDGE_KERNELS_HELIUM
void opbridge_spatial_sums_s8_helium(int32_t *sums, const int8_t *image, int32_t positions, int32_t channels);

/* MEAN's int8 outputs from their sums, Helium: output[o] = clamp(rescale(sums[o] - input_zero_point x
 * count) + output_zero_point), four at a time with TFLite's rounding (opbridge_multiply_by_quantized_multiplier);
 * the caller has checked that every centred sum fits int32 (count below 2^23). */
void opbridge_mean_outputs_s8_helium(const int32_t *sums, int32_t outputs, int32_t centring, int32_t multiplier,
                                     int32_t shift, int32_t output_zero_point, int8_t *output);
#endif

#endif /* OPBRIDGE_KERNELS_INTERNAL_H_ */
