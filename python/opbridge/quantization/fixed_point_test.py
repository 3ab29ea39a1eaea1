# SPDX-License-Identifier: Apache-2.0
"""The NumPy fixed-point functions equal the C kernels (cc/kernels) bit for bit."""

import _opbridge_fixed_point as native
import hypothesis.extra.numpy as numpy_strategies
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from opbridge.quantization import fixed_point

INT32 = st.integers(min_value=fixed_point.INT32_MIN, max_value=fixed_point.INT32_MAX)
INT32_ARRAYS = numpy_strategies.arrays(np.int32, st.integers(1, 64), elements=INT32)


@given(INT32, INT32)
def test_doubling_high_mul_matches_c(a: int, b: int) -> None:
    assert int(fixed_point.saturating_rounding_doubling_high_mul(a, b)) == native.saturating_rounding_doubling_high_mul(
        a, b
    )


@given(INT32, st.integers(0, 31))
def test_divide_by_power_of_two_matches_c(x: int, exponent: int) -> None:
    assert int(fixed_point.rounding_divide_by_power_of_two(x, exponent)) == native.rounding_divide_by_power_of_two(
        x, exponent
    )


@given(INT32_ARRAYS, st.integers(0, 2**31 - 1), st.integers(-31, 30))
def test_multiply_by_quantized_multiplier_matches_c(values: np.ndarray, multiplier: int, shift: int) -> None:
    ours = fixed_point.multiply_by_quantized_multiplier(values.astype(np.int64), multiplier, shift)
    assert ours.tolist() == native.multiply_by_quantized_multiplier(values, multiplier, shift).tolist()


def test_64_bit_rescale_rounds_the_multiplier_to_16_bits() -> None:
    # 2^30 -> 2^14 (reduced), shift 0: x * 2^14 / 2^15 rounded half up.
    rescale = fixed_point.multiply_by_quantized_multiplier_int64
    np.testing.assert_array_equal(rescale(np.array([3, -3, 5]), 1 << 30, 0), [2, -1, 3])
    assert int(rescale(np.array(1), 0x7FFFFFFF, 0)) == 1  # reduced to 0x7FFF
    # Beyond int32 the result is truncated, as TFLite's cast to int32 does: 2^39 + 5 -> 5.
    assert int(rescale((1 << 40) + 10, 1 << 30, 0)) == 5


@given(st.floats(min_value=1e-12, max_value=1e6, allow_nan=False))
def test_quantize_multiplier_represents_the_real_value(real: float) -> None:
    multiplier, shift = fixed_point.quantize_multiplier(real)
    if multiplier == 0:
        assert real < 2.0**-31
        return
    assert 2**30 <= multiplier < 2**31
    assert abs(multiplier * 2.0**shift / 2**31 - real) <= real * 2.0**-30


def test_quantize_multiplier_edge_cases() -> None:
    assert fixed_point.quantize_multiplier(0.0) == (0, 0)
    assert fixed_point.quantize_multiplier(0.5) == (2**30, 0)
    assert fixed_point.quantize_multiplier(1.0) == (2**30, 1)
    # A mantissa that rounds up to 1.0 moves to the next exponent.
    assert fixed_point.quantize_multiplier(1.0 - 2.0**-40) == (2**30, 1)
