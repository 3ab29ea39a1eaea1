# SPDX-License-Identifier: Apache-2.0
"""SignalWindow in NumPy, bit-exact with TFLM.

Each run of len(weights) consecutive samples (the input flattened) is
multiplied element-wise by the weights in int32, shifted right
arithmetically by `shift` and saturated to int16.
"""

import numpy as np

from opbridge_signal.window.attributes import WindowAttributes


def check_shapes(attributes: WindowAttributes, input_shape: tuple[int, ...], weights_shape: tuple[int, ...]) -> None:
    """ValueError unless TFLM runs these shapes and attributes without undefined behaviour."""
    if not 0 <= attributes.shift <= 31:
        raise ValueError(f"SignalWindow: shift must be in [0, 31], got {attributes.shift}")
    if len(weights_shape) != 1 or weights_shape[0] < 1:
        raise ValueError(f"SignalWindow: weights must be one non-empty dimension, got shape {weights_shape}")
    if len(input_shape) < 1:
        raise ValueError("SignalWindow: the input needs at least one dimension")
    size = int(np.prod(input_shape, dtype=np.int64))
    # TFLM steps through the input in whole windows and would run past its end.
    if size % weights_shape[0]:
        raise ValueError(f"SignalWindow: input size {size} is not a multiple of the window length {weights_shape[0]}")


def reference(attributes: WindowAttributes, inputs: list[np.ndarray], state: np.ndarray | None) -> list[np.ndarray]:
    """int16 input (any shape), int16 weights [W] -> int16, the input's shape."""
    samples, weights = inputs
    check_shapes(attributes, samples.shape, weights.shape)
    products = samples.reshape(-1, weights.shape[0]).astype(np.int32) * weights.astype(np.int32)
    windowed = np.clip(products >> attributes.shift, -32768, 32767).astype(np.int16)
    return [windowed.reshape(samples.shape)]


def scratch_bytes(attributes: WindowAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def persistent_bytes(attributes: WindowAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0
