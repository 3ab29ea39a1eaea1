# SPDX-License-Identifier: Apache-2.0
"""TFLite's int16 lookup tables with interpolation (kernels/internal/common.h: LUTPopulate<int16_t>, LUTLookup),
bit-exact: 513 int16 entries, indexed by the top 9 bits of an int16 value, interpolated on the low 7.

The table is built in float32 arithmetic, each operation rounded as C rounds it, with TfLiteRound (halves away
from zero) and the float transform TFLite Micro passes (std::exp on a float is libm's expf, called here
through ctypes so that the table is the one TFLite Micro builds, not one an ulp away)."""

import ctypes
import ctypes.util
import functools
from collections.abc import Callable

import numpy as np

from opbridge.ops.definition import Array

LUT_SIZE = 513
LUT_STEPS = 512
INT16_MIN, INT16_MAX = -32768, 32767


@functools.cache
def _libm_expf() -> Callable[[float], float]:
    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    expf = libm.expf
    expf.restype = ctypes.c_float
    expf.argtypes = [ctypes.c_float]
    return expf


def float32_expf(value: np.float32) -> np.float32:
    """libm's expf of one float32."""
    return np.float32(_libm_expf()(float(value)))


def float32_one_over_one_plus(value: np.float32) -> np.float32:
    """1.0f / (1.0f + value), in float32."""
    return np.float32(np.float32(1.0) / (np.float32(1.0) + np.float32(value)))


def _round(value: np.float32) -> np.float32:
    """TfLiteRound (std::round) of a float32: halves away from zero (in float64, where value + 0.5 is exact)."""
    magnitude = np.floor(np.abs(np.float64(value)) + 0.5)
    return np.float32(np.copysign(magnitude, np.float64(value)))


def lut_populate_int16(
    input_scale: np.float32,
    input_zero_point: int,
    output_scale: np.float32,
    output_zero_point: int,
    transform: Callable[[np.float32], np.float32],
) -> np.ndarray:
    """LUTPopulateInt16<float>: samples of transform over the input range, each biased by half the error of
    linear interpolation at the step's midpoint, scaled to int16 and saturated."""
    f32 = np.float32
    input_scale, output_scale = f32(input_scale), f32(output_scale)
    input_min = f32(input_scale * f32(INT16_MIN - input_zero_point))
    input_max = f32(input_scale * f32(INT16_MAX - input_zero_point))
    output_min = f32(output_scale * f32(INT16_MIN - output_zero_point))
    output_max = f32(output_scale * f32(INT16_MAX - output_zero_point))
    step = f32(f32(input_max - input_min) / f32(LUT_STEPS))
    half_step = f32(step / f32(2))
    scaling_inverse = f32(f32(INT16_MAX - INT16_MIN + 1) / f32(output_max - output_min))
    table_min, table_max = f32(INT16_MIN), f32(INT16_MAX)
    lut = np.zeros(LUT_SIZE, dtype=np.int16)
    for i in range(LUT_STEPS):
        at = f32(input_min + f32(f32(i) * step))
        value = transform(at)
        midpoint = transform(f32(at + half_step))
        following = transform(f32(input_min + f32(f32(i + 1) * step)))
        sample = _round(f32(value * scaling_inverse))
        interpolated = _round(f32(f32(f32(following * scaling_inverse) + sample) / f32(2)))
        exact_midpoint = _round(f32(midpoint * scaling_inverse))
        bias = _round(f32(f32(interpolated - exact_midpoint) / f32(2)))
        lut[i] = int(min(max(f32(sample - bias), table_min), table_max))
    last = _round(f32(transform(input_max) * scaling_inverse))
    lut[LUT_STEPS] = int(min(max(last, table_min), table_max))
    return lut


def lut_lookup_int16(values: Array, lut: np.ndarray) -> Array:
    """LUTLookup(int16, lut) on an array of int16 values (as int64): base lut[256 + (v >> 7)] plus the slope to
    the next entry times the low 7 bits, rounded (+64, >> 7)."""
    values = np.asarray(values, dtype=np.int64)
    index = 256 + (values >> 7)
    offset = values & 0x7F
    table = lut.astype(np.int64)
    base = table[index]
    slope = ((table[index + 1] - base + 32768) & 0xFFFF) - 32768  # stored as int16_t
    delta = (slope * offset + 64) >> 7
    return ((base + delta + 32768) & 0xFFFF) - 32768
