# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSquareRoot in Python: each channel's rounded square root, shifted down by the FFT's scale.

TFLM rounds the integer square root to nearest, with two quirks kept here: a value below 2**32 takes
a 16-bit path whose result stops at 0xFFFF (so 0xFFFF**2 + 0xFFFF < v < 2**32 gives 0xFFFF, not
0x10000), and a 64-bit result stops at 0xFFFFFFFF.
"""

import math

import numpy as np

from opbridge_signal.filter_bank_square_root.attributes import CUSTOM_CODE, FilterBankSquareRootAttributes

MAX_SCALE_DOWN_BITS = 31  # a uint32 shifted by 32 or more (or by a negative count) is undefined in TFLM


def scratch_bytes(attributes: FilterBankSquareRootAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def persistent_bytes(attributes: FilterBankSquareRootAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def rounded_square_root(value: int) -> int:
    """TFLM's Sqrt64: round(sqrt(value)), saturated at 0xFFFF below 2**32 and at 0xFFFFFFFF above."""
    ceiling = 0xFFFF if value < 2**32 else 0xFFFFFFFF
    root = math.isqrt(value)
    # value - root^2 > root  <=>  value > (root + 1/2)^2 - 1/4, i.e. the nearest integer is root + 1.
    if value - root * root > root and root != ceiling:
        root += 1
    return root


def reference(
    attributes: FilterBankSquareRootAttributes, inputs: list[np.ndarray], state: np.ndarray | None = None
) -> list[np.ndarray]:
    energies, scale_down_bits_tensor = inputs
    scale_down_bits = int(np.asarray(scale_down_bits_tensor).reshape(-1)[0])
    if not 0 <= scale_down_bits <= MAX_SCALE_DOWN_BITS:
        raise ValueError(f"{CUSTOM_CODE}: scale shift {scale_down_bits} is outside [0, {MAX_SCALE_DOWN_BITS}]")
    flat = np.asarray(energies, dtype=np.uint64).ravel()
    roots = [rounded_square_root(int(value)) >> scale_down_bits for value in flat]
    return [np.array(roots, dtype=np.uint32).reshape(np.shape(energies))]
