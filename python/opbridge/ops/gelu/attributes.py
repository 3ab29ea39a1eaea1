# SPDX-License-Identifier: Apache-2.0
"""GELU's attributes."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class GeluAttributes:
    # The tanh approximation, 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), instead of the exact
    # 0.5 x erfc(-x / sqrt(2)) (LiteRT's GeluOptions.approximate; ONNX's approximate="tanh"; torch's
    # approximate="tanh").
    approximate: bool = False
