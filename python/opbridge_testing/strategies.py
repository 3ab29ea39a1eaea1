# SPDX-License-Identifier: Apache-2.0
"""Hypothesis strategies for quantized operator parameters."""

import numpy as np
from hypothesis import strategies as st
from opbridge.ir import Quantization
from opbridge.ir.attribute_types import Activation, Padding

ACTIVATIONS = st.sampled_from([Activation.NONE, Activation.RELU, Activation.RELU6, Activation.RELU_N1_TO_1])
PADDINGS = st.sampled_from([Padding.SAME, Padding.VALID])
ZERO_POINTS = st.integers(-128, 127)


def scales(low: float = 1e-3, high: float = 0.5) -> st.SearchStrategy[float]:
    """Positive float32 scales, log-uniform between low and high."""
    return st.floats(np.log(low), np.log(high)).map(lambda x: float(np.float32(np.exp(x))))


@st.composite
def per_tensor(draw: st.DrawFn, low: float = 1e-3, high: float = 0.5) -> Quantization:
    return Quantization((draw(scales(low, high)),), (draw(ZERO_POINTS),))


@st.composite
def int16_symmetric(draw: st.DrawFn, low: float = 1e-5, high: float = 1e-2) -> Quantization:
    """int16 activation quantization as TFLite's converter chooses it for 16x8 models: symmetric,
    zero point 0, one scale (max |x| / 32767, so smaller than int8 scales for the same range)."""
    return Quantization((draw(scales(low, high)),), (0,))


@st.composite
def symmetric_filter(draw: st.DrawFn, channels: int, axis: int) -> Quantization:
    """int8 filter quantization: zero points 0, per tensor or per channel along `axis`."""
    if draw(st.booleans()) or channels == 1:
        return Quantization((draw(scales(1e-3, 0.05)),), (0,))
    return Quantization(tuple(draw(scales(1e-3, 0.05)) for _ in range(channels)), (0,) * channels, axis)


def int8_array(draw: st.DrawFn, shape: tuple[int, ...]) -> np.ndarray:
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).integers(-127, 128, size=shape).astype(np.int8)


def bias_array(draw: st.DrawFn, count: int) -> np.ndarray:
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).integers(-20000, 20000, size=(count,)).astype(np.int32)
