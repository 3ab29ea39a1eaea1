# SPDX-License-Identifier: Apache-2.0
"""TFLite's fixed-point arithmetic on NumPy arrays, bit-exact with cc/kernels.

All functions take and return int64 arrays (or Python ints) holding int32
values; the wide type only keeps intermediate products exact. Rounding
follows gemmlowp, as TFLite and TFLite Micro's reference kernels do: see
cc/kernels/opbridge_fixed_point.h for the C side.
"""

import math

import numpy as np
import numpy.typing as npt

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1

IntArray = npt.NDArray[np.int64]


def saturating_rounding_doubling_high_mul(a: IntArray | int, b: IntArray | int) -> IntArray:
    """(a * b) / 2^31 rounded to nearest, ties upwards; INT32_MIN * INT32_MIN saturates."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    # a * b fits in int64 for int32 operands except (-2^31)^2 = 2^62, which also fits.
    product = a * b
    nudge = np.where(product >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    total = product + nudge
    # C's int64 division truncates toward zero; NumPy's // floors.
    quotient = np.where(total >= 0, total >> 31, -((-total) >> 31))
    overflow = (a == INT32_MIN) & (b == INT32_MIN)
    return np.where(overflow, np.int64(INT32_MAX), quotient)


def rounding_divide_by_power_of_two(x: IntArray | int, exponent: IntArray | int) -> IntArray:
    """x / 2^exponent rounded to nearest, ties away from zero; exponent in [0, 31]."""
    x = np.asarray(x, dtype=np.int64)
    exponent = np.asarray(exponent, dtype=np.int64)
    mask = (np.int64(1) << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def wrap_int32(x: IntArray) -> IntArray:
    """Two's-complement wrap to int32, as C does when it shifts an int32 left."""
    return ((np.asarray(x, dtype=np.int64) + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def multiply_by_quantized_multiplier(x: IntArray | int, multiplier: IntArray | int, shift: IntArray | int) -> IntArray:
    """x * multiplier * 2^shift / 2^31, as TFLite's MultiplyByQuantizedMultiplier."""
    shift = np.asarray(shift, dtype=np.int64)
    left_shift = np.maximum(shift, 0)
    right_shift = np.maximum(-shift, 0)
    shifted = wrap_int32(np.asarray(x, dtype=np.int64) << left_shift)
    return rounding_divide_by_power_of_two(saturating_rounding_doubling_high_mul(shifted, multiplier), right_shift)


def multiply_by_quantized_multiplier_int64(
    x: IntArray | int, multiplier: IntArray | int, shift: IntArray | int
) -> IntArray:
    """TFLite's MultiplyByQuantizedMultiplier for int64 accumulators (the 16x8 kernels: FULLY_CONNECTED,
    BATCH_MATMUL, LSTM).

    The multiplier is first reduced to 16 bits (rounded, 0x7FFF at most), then x * reduced is
    shifted right by 15 - shift with rounding (half up), and the result is truncated to int32, as
    TFLite's cast does (its default double-rounding build does not saturate here); callers clamp
    after. x in [-2^47, 2^47), shift in [-31, 7].
    """
    x = np.asarray(x, dtype=np.int64)
    multiplier = np.asarray(multiplier, dtype=np.int64)
    shift = np.asarray(shift, dtype=np.int64)
    reduced = np.where(multiplier < 0x7FFF0000, (multiplier + (1 << 15)) >> 16, 0x7FFF)
    total_shift = 15 - shift
    return wrap_int32((x * reduced + (np.int64(1) << (total_shift - 1))) >> total_shift)


def quantize_multiplier(real_multiplier: float) -> tuple[int, int]:
    """A positive real multiplier as (Q0.31 multiplier in [2^30, 2^31), shift), as TFLite does.

    The mantissa from frexp is rounded half away from zero (std::round); a
    mantissa that rounds up to 1.0 becomes 0.5 with the exponent raised, and
    multipliers too small to represent become (0, 0).
    """
    if real_multiplier == 0.0:
        return 0, 0
    if real_multiplier < 0.0 or not math.isfinite(real_multiplier):
        raise ValueError(f"a quantized multiplier must be finite and non-negative, got {real_multiplier}")
    mantissa, exponent = math.frexp(real_multiplier)
    quantized = round_half_away_from_zero(mantissa * (1 << 31))
    if quantized == 1 << 31:
        quantized //= 2
        exponent += 1
    if exponent < -31:
        return 0, 0
    return int(quantized), int(exponent)


def round_half_away_from_zero(value: float) -> int:
    """std::round (TfLiteRound): halves go away from zero."""
    return math.floor(abs(value) + 0.5) * (1 if value >= 0 else -1)
