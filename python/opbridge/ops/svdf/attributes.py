# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Activation


@dataclasses.dataclass(frozen=True)
class SvdfAttributes:
    # Filters per output unit: num_units = num_filters / rank.
    rank: int = 1
    # Fused activation of the float32 kernel (TFLite Micro's int8 kernel applies none: it only clamps to int8).
    activation: Activation = Activation.NONE
