/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fixed-point arithmetic of TFLite's quantized kernels.
 *
 * A real multiplier M in (0, 1) x 2^shift is stored as a Q0.31 `multiplier`
 * in [2^30, 2^31) and an integer `shift`; rescaling an int32 accumulator by
 * M is then done without floating point, rounding exactly as TFLite and
 * TFLite Micro's reference kernels do (gemmlowp's rounding; TFLite's
 * default, not its TFLITE_SINGLE_ROUNDING build option).
 */
#ifndef OPBRIDGE_KERNELS_FIXED_POINT_H_
#define OPBRIDGE_KERNELS_FIXED_POINT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * (a * b) / 2^31 rounded to nearest, ties upwards (gemmlowp's nudge then
 * truncation), saturated to int32. The one overflowing case,
 * a == b == INT32_MIN, gives INT32_MAX.
 */
int32_t opbridge_saturating_rounding_doubling_high_mul(int32_t a, int32_t b);

/*
 * x / 2^exponent, rounded half away from zero. exponent in [0, 31].
 */
int32_t opbridge_rounding_divide_by_power_of_two(int32_t x, int32_t exponent);

/*
 * x * multiplier * 2^shift / 2^31: a left shift of x for shift > 0, the
 * doubling high multiply, then a rounding right shift for shift < 0.
 * multiplier in [0, 2^31), shift in [-31, 30].
 */
int32_t opbridge_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift);

/*
 * opbridge_multiply_by_quantized_multiplier for the kernels' inner loops, inline. With the
 * multiplier in [0, 2^31) the doubling high multiply cannot saturate, and gemmlowp's
 * sign-dependent nudge then truncation toward zero equals floor((a * b + 2^30) / 2^31) for
 * every product: one multiply-accumulate into 64 bits (SMLAL on Arm) and a shift, instead of a
 * 64-bit division. The rounding right shift is TFLite's, unchanged.
 */
static inline int32_t opbridge_rescale(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t left_shift = shift > 0 ? shift : 0;
  const int32_t right_shift = shift > 0 ? 0 : -shift;
  const int32_t shifted = (int32_t)((uint32_t)x << left_shift);
  /* >> of a negative integer is an arithmetic shift on every compiler we use. */
  const int32_t high = (int32_t)(((int64_t)shifted * (int64_t)multiplier + (INT64_C(1) << 30)) >> 31);
  const int32_t mask = (int32_t)((UINT32_C(1) << right_shift) - 1u);
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right_shift) + ((high & mask) > threshold ? 1 : 0);
}

/*
 * TFLite's MultiplyByQuantizedMultiplier(int64_t x, ...), for the 16x8 kernels' int64 accumulators
 * (BATCH_MATMUL, FULLY_CONNECTED), inline and defined once here: the Q0.31 multiplier rounded to 16
 * bits (0x7FFF at most), x * reduced shifted right by 15 - shift with rounding (half up), truncated
 * to int32 (no saturation, as TFLite's default build). x in [-2^47, 2^47), shift in [-31, 7].
 */
static inline int32_t opbridge_rescale_s64(int64_t x, int32_t multiplier, int32_t shift) {
  const int64_t reduced = multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF;
  const int32_t total_shift = 15 - shift;
  /* >> of a negative integer is an arithmetic shift on every compiler we use. */
  const int64_t result = (x * reduced + (INT64_C(1) << (total_shift - 1))) >> total_shift;
  return (int32_t)(uint32_t)(uint64_t)result;
}

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_KERNELS_FIXED_POINT_H_ */
