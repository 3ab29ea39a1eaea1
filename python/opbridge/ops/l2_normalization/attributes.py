# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION's attributes (TFLite's L2NormOptions)."""

import dataclasses

from opbridge.ir.attribute_types import Activation


@dataclasses.dataclass(frozen=True)
class L2NormalizationAttributes:
    # TFLite Micro supports NONE only; kept so that a model with another is refused naming it.
    activation: Activation = Activation.NONE
