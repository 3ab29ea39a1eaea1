# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Activation


@dataclasses.dataclass(frozen=True)
class DivAttributes:
    activation: Activation = Activation.NONE
