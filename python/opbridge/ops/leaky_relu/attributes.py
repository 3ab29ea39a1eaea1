# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU's attributes."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class LeakyReluAttributes:
    # The slope below zero, a float32 (TFLite's LeakyReluOptions.alpha; ONNX LeakyRelu's alpha).
    alpha: float = 0.2
