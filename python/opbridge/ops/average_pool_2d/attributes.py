# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Activation, Padding


@dataclasses.dataclass(frozen=True)
class Pool2DAttributes:
    padding: Padding = Padding.VALID
    stride_height: int = 1
    stride_width: int = 1
    filter_height: int = 1
    filter_width: int = 1
    activation: Activation = Activation.NONE
