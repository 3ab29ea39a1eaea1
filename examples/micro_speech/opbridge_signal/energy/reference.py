# SPDX-License-Identifier: Apache-2.0
"""SignalEnergy in NumPy, bit-exact with TFLM.

The input is a complex spectrum, int16 (re, im) interleaved; bin i gets
re^2 + im^2 as uint32 for start_index <= i < end_index. TFLM leaves the
other bins of its output untouched (whatever the arena held); here, and in
the C kernel, they are 0. The one sum that exceeds int32 in TFLM,
(-32768)^2 + (-32768)^2, wraps to 2^31 there, which is its uint32 value.
"""

import numpy as np

from opbridge_signal.energy.attributes import EnergyAttributes


def bin_count(input_shape: tuple[int, ...]) -> int:
    return input_shape[0] // 2


def check_shapes(attributes: EnergyAttributes, input_shape: tuple[int, ...]) -> None:
    if len(input_shape) != 1:
        raise ValueError(f"SignalEnergy: the input must have one dimension, got shape {input_shape}")
    bins = bin_count(input_shape)
    if not 0 <= attributes.start_index <= attributes.end_index <= bins:
        raise ValueError(
            f"SignalEnergy: need 0 <= start_index ({attributes.start_index}) <= end_index ({attributes.end_index}) "
            f"<= {bins} bins"
        )


def reference(attributes: EnergyAttributes, inputs: list[np.ndarray], state: np.ndarray | None) -> list[np.ndarray]:
    """int16 [2 * B] (complex interleaved) -> uint32 [B]."""
    (spectrum,) = inputs
    check_shapes(attributes, spectrum.shape)
    bins = slice(attributes.start_index, attributes.end_index)
    values = spectrum[: 2 * bin_count(spectrum.shape)].astype(np.int64).reshape(-1, 2)
    energy = np.zeros(bin_count(spectrum.shape), dtype=np.uint32)
    energy[bins] = (values[bins, 0] ** 2 + values[bins, 1] ** 2).astype(np.uint32)
    return [energy]


def scratch_bytes(attributes: EnergyAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def persistent_bytes(attributes: EnergyAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0
