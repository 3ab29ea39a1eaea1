# SPDX-License-Identifier: Apache-2.0
"""The pybind11 module imports and its kernels match exact Python integers."""

import _opbridge_fixed_point as native
import hypothesis.extra.numpy as numpy_strategies
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

INT32 = st.integers(min_value=-(2**31), max_value=2**31 - 1)


def floor_div(numerator: int, denominator: int) -> int:
    return numerator // denominator  # Python's // is a floor division


def exact_doubling_high_mul(a: int, b: int) -> int:
    if a == b == -(2**31):
        return 2**31 - 1
    return floor_div(a * b + 2**30, 2**31)


def exact_divide_by_power_of_two(x: int, exponent: int) -> int:
    magnitude = (abs(x) + (1 << exponent >> 1)) >> exponent
    return -magnitude if x < 0 else magnitude


def exact_rescale(x: int, multiplier: int, shift: int) -> int:
    shifted = np.int32(np.uint32((x << max(shift, 0)) & 0xFFFFFFFF).view(np.int32))
    return exact_divide_by_power_of_two(exact_doubling_high_mul(int(shifted), multiplier), max(-shift, 0))


def test_module_is_the_bazel_built_extension() -> None:
    assert native.__file__.endswith("cc/python/_opbridge_fixed_point.so")


@given(INT32, INT32)
def test_doubling_high_mul(a: int, b: int) -> None:
    assert native.saturating_rounding_doubling_high_mul(a, b) == exact_doubling_high_mul(a, b)


@given(INT32, st.integers(min_value=0, max_value=31))
def test_divide_by_power_of_two(x: int, exponent: int) -> None:
    assert native.rounding_divide_by_power_of_two(x, exponent) == exact_divide_by_power_of_two(x, exponent)


@given(
    numpy_strategies.arrays(np.int32, numpy_strategies.array_shapes(max_dims=3, max_side=5)),
    st.integers(min_value=0, max_value=2**31 - 1),
    st.integers(min_value=-31, max_value=30),
)
def test_multiply_by_quantized_multiplier_keeps_shape(values: np.ndarray, multiplier: int, shift: int) -> None:
    result = native.multiply_by_quantized_multiplier(values, multiplier, shift)
    assert result.shape == values.shape
    assert result.dtype == np.int32
    expected = [exact_rescale(int(x), multiplier, shift) for x in values.flat]
    assert result.ravel().tolist() == expected


def test_bad_arguments_raise_value_error_naming_the_range() -> None:
    with pytest.raises(ValueError, match=r"shift must be in \[-31, 30\], got 31"):
        native.multiply_by_quantized_multiplier(np.zeros(2, np.int32), 1 << 30, 31)
    with pytest.raises(ValueError, match="multiplier must be in"):
        native.multiply_by_quantized_multiplier(np.zeros(2, np.int32), -1, 0)
    with pytest.raises(ValueError, match="exponent must be in"):
        native.rounding_divide_by_power_of_two(5, 32)
