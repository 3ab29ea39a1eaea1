/* SPDX-License-Identifier: Apache-2.0 */
// LeakyRelu's numerics, shared by the two example plugins: y = x for x >= 0,
// alpha * x otherwise, computed in float (double for float64) and rounded
// to the element type to nearest, ties to even, as NumPy and ml_dtypes do.
#ifndef OPBRIDGE_EXAMPLES_NATIVE_PLUGINS_LEAKY_RELU_MATH_H_
#define OPBRIDGE_EXAMPLES_NATIVE_PLUGINS_LEAKY_RELU_MATH_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace leaky_relu {

inline uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float BitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// bfloat16 is the top half of a float32.
inline float BFloat16ToFloat(uint16_t bits) { return BitsFloat(static_cast<uint32_t>(bits) << 16); }

inline uint16_t FloatToBFloat16(float value) {
  const uint32_t bits = FloatBits(value);
  if (std::isnan(value)) return static_cast<uint16_t>((bits >> 16) | 0x0040u);  // stay a (quiet) NaN
  const uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
inline float Float16ToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1Fu;
  const uint32_t mantissa = half & 0x3FFu;
  if (exponent == 0x1Fu) return BitsFloat(sign | 0x7F800000u | (mantissa << 13));  // inf, NaN
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return BitsFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

inline uint16_t FloatToFloat16(float value) {
  const uint32_t bits = FloatBits(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu));  // NaN
  if (magnitude >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to infinity (or is)
  if (magnitude < 0x38800000u) {
    // Below the smallest normal half: a multiple of 2^-24, rounded to nearest even.
    const float scaled = std::ldexp(BitsFloat(magnitude), 24);  // exact
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  // Normal: re-bias the exponent and round the 13 dropped mantissa bits to nearest even.
  const uint32_t rebased = magnitude - (112u << 23);
  const uint32_t rounding = 0x0FFFu + ((rebased >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rebased + rounding) >> 13));
}

inline float Apply(float x, float alpha) { return x < 0.0f ? alpha * x : x; }
inline double Apply(double x, double alpha) { return x < 0.0 ? alpha * x : x; }

}  // namespace leaky_relu

#endif  // OPBRIDGE_EXAMPLES_NATIVE_PLUGINS_LEAKY_RELU_MATH_H_
