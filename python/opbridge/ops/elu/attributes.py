# SPDX-License-Identifier: Apache-2.0
"""ELU's attributes."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class EluAttributes:
    # The scale of expm1(x) below zero, a float32 (ONNX Elu's alpha; TFLite's ELU has no options: 1.0).
    alpha: float = 1.0
