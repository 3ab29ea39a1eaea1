# SPDX-License-Identifier: Apache-2.0
"""PACK's attributes (TFLite's PackOptions)."""

import dataclasses

from opbridge.ir import DType

# The element types TFLite Micro's PACK takes (the same for every input and the output).
PACK_DTYPES = (DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.FLOAT32)


@dataclasses.dataclass(frozen=True)
class PackAttributes:
    values_count: int = 1  # the number of inputs
    axis: int = 0  # the output's new axis, in [-(rank + 1), rank + 1) for inputs of rank `rank`
