# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV's attributes (LiteRT's TransposeConvOptions; dilation is always 1)."""

import dataclasses

from opbridge.ir.attribute_types import Activation, Padding


@dataclasses.dataclass(frozen=True)
class TransposeConvAttributes:
    padding: Padding = Padding.SAME
    stride_height: int = 1
    stride_width: int = 1
    activation: Activation = Activation.NONE
