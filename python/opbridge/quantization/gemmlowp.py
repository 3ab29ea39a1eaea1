# SPDX-License-Identifier: Apache-2.0
"""gemmlowp's fixed-point exp and reciprocal, used by TFLite's int8 SOFTMAX.

Values are int64 arrays holding int32 raw fixed-point numbers; a
FixedPoint<int32, N> has N integer bits and 31 - N fractional bits. The
products of two fixed-point values are saturating rounding doubling high
multiplies of their raw values, as in gemmlowp.
"""

import numpy as np

from opbridge.quantization.fixed_point import (
    INT32_MAX,
    INT32_MIN,
    IntArray,
    rounding_divide_by_power_of_two,
    saturating_rounding_doubling_high_mul,
)

ONE_WITH_ZERO_INTEGER_BITS = INT32_MAX  # 1.0 saturates with no integer bits


def multiply(a: IntArray, b: IntArray | int) -> IntArray:
    return saturating_rounding_doubling_high_mul(a, b)


def saturating_rounding_multiply_by_power_of_two(x: IntArray, exponent: int) -> IntArray:
    """x * 2^exponent: saturating for exponent > 0, rounding for exponent < 0."""
    x = np.asarray(x, dtype=np.int64)
    if exponent < 0:
        return rounding_divide_by_power_of_two(x, -exponent)
    if exponent == 0:
        return x
    threshold = (1 << (31 - exponent)) - 1
    shifted = x << exponent
    return np.where(x > threshold, INT32_MAX, np.where(x < -threshold, INT32_MIN, shifted))


def rescale(x: IntArray, source_integer_bits: int, target_integer_bits: int) -> IntArray:
    return saturating_rounding_multiply_by_power_of_two(x, source_integer_bits - target_integer_bits)


def rounding_half_sum(a: IntArray, b: IntArray | int) -> IntArray:
    total = np.asarray(a, dtype=np.int64) + np.asarray(b, dtype=np.int64)
    nudged = total + np.where(total >= 0, 1, -1)
    return np.where(nudged >= 0, nudged // 2, -((-nudged) // 2))  # C division truncates


def exp_on_interval_between_negative_one_quarter_and_0_excl(a: IntArray) -> IntArray:
    """exp(a) for a in [-1/4, 0), both with 0 integer bits: Taylor series around -1/8."""
    constant_term = 1895147668  # exp(-1/8)
    constant_1_over_3 = 715827883
    x = a + (1 << 28)  # a + 1/8
    x2 = multiply(x, x)
    x3 = multiply(x2, x)
    x4 = multiply(x2, x2)
    x4_over_4 = saturating_rounding_multiply_by_power_of_two(x4, -2)
    polynomial = saturating_rounding_multiply_by_power_of_two(multiply(x4_over_4 + x3, constant_1_over_3) + x2, -1)
    return constant_term + multiply(constant_term, x + polynomial)


# exp(-2^k) in Q0.31 for the barrel shifter, k = -2 .. 4.
_EXP_OF_MINUS_POWERS_OF_TWO = (
    (-2, 1672461947),
    (-1, 1302514674),
    (0, 790015084),
    (1, 290630308),
    (2, 39332535),
    (3, 720401),
    (4, 242),
)


def exp_on_negative_values(a: IntArray, integer_bits: int) -> IntArray:
    """exp(a) for a <= 0 with `integer_bits` integer bits; result with 0 integer bits."""
    a = np.asarray(a, dtype=np.int64)
    fractional_bits = 31 - integer_bits
    one_quarter = 1 << (fractional_bits - 2)
    a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter
    result = exp_on_interval_between_negative_one_quarter_and_0_excl(
        rescale(a_mod_quarter_minus_one_quarter, integer_bits, 0)
    )
    remainder = a_mod_quarter_minus_one_quarter - a
    for exponent, multiplier in _EXP_OF_MINUS_POWERS_OF_TWO:
        if integer_bits > exponent:
            bit = 1 << (fractional_bits + exponent)
            result = np.where((remainder & bit) != 0, multiply(result, multiplier), result)
    if integer_bits > 5:
        raise NotImplementedError("exp_on_negative_values with more than 5 integer bits")
    return np.where(a == 0, ONE_WITH_ZERO_INTEGER_BITS, result)


def _newton_reciprocal(half_denominator: IntArray) -> IntArray:
    """Three Newton-Raphson steps for 1 / (2 * half_denominator); 2 integer bits out."""
    constant_48_over_17 = 1515870810  # 2 integer bits
    constant_neg_32_over_17 = -1010580540  # 2 integer bits
    one_with_2_integer_bits = 1 << 29
    x = constant_48_over_17 + multiply(half_denominator, constant_neg_32_over_17)
    for _ in range(3):
        half_denominator_times_x = multiply(half_denominator, x)  # 2 integer bits
        one_minus_half_denominator_times_x = one_with_2_integer_bits - half_denominator_times_x
        x = x + rescale(multiply(x, one_minus_half_denominator_times_x), 4, 2)
    return x


def one_over_one_plus_x_for_x_in_0_1(a: IntArray) -> IntArray:
    """1 / (1 + a) for a in [0, 1) (0 integer bits)."""
    x = _newton_reciprocal(rounding_half_sum(a, ONE_WITH_ZERO_INTEGER_BITS))
    # x / 2 (same raw value, one integer bit fewer), then to 0 integer bits.
    return rescale(x, 1, 0)


def one_minus_x_over_one_plus_x_for_x_in_0_1(a: IntArray) -> IntArray:
    """(1 - a) / (1 + a) for a in [0, 1) (0 integer bits)."""
    x = _newton_reciprocal(rounding_half_sum(a, ONE_WITH_ZERO_INTEGER_BITS))
    return rescale(x - (1 << 29), 2, 0)


def logistic(a: IntArray) -> IntArray:
    """logistic(a) for a with 4 integer bits; 0 integer bits out."""
    a = np.asarray(a, dtype=np.int64)
    magnitude = np.abs(a)
    positive = one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(-magnitude, 4))
    result = np.where(a > 0, positive, ONE_WITH_ZERO_INTEGER_BITS - positive)
    return np.where(a == 0, 1 << 30, result)


def tanh(a: IntArray) -> IntArray:
    """tanh(a) for a with 4 integer bits; 0 integer bits out."""
    a = np.asarray(a, dtype=np.int64)
    # exp(2 * -|a|): the same raw value read with 5 integer bits.
    magnitude_result = one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(-np.abs(a), 5))
    return np.where(a == 0, 0, np.where(a < 0, -magnitude_result, magnitude_result))


def reciprocal(x: IntArray, integer_bits: int) -> tuple[IntArray, IntArray]:
    """TFLite's GetReciprocal: (1/x scaled into [0.5, 1) with 0 integer bits, bits over unit)."""
    x = np.asarray(x, dtype=np.int64)
    unsigned = x & 0xFFFFFFFF
    # Leading zeros of the 32-bit value (x > 0 here).
    headroom_plus_one = 32 - np.floor(np.log2(np.maximum(unsigned, 1))).astype(np.int64) - 1
    # log2 of exact powers of two can be off by an ulp in floating point; correct it.
    headroom_plus_one = np.where((unsigned << headroom_plus_one) >= (1 << 32), headroom_plus_one - 1, headroom_plus_one)
    headroom_plus_one = np.where(
        ((unsigned << headroom_plus_one) & 0x80000000) == 0, headroom_plus_one + 1, headroom_plus_one
    )
    bits_over_unit = integer_bits - headroom_plus_one
    shifted = ((unsigned << headroom_plus_one) - (1 << 31)) & 0xFFFFFFFF
    shifted_sum_minus_one = np.where(shifted >= 1 << 31, shifted - (1 << 32), shifted)
    return one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one), bits_over_unit
