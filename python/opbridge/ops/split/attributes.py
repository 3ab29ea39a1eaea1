# SPDX-License-Identifier: Apache-2.0
"""SPLIT's attributes (TFLite's SplitOptions)."""

import dataclasses

from opbridge.ir import DType

# The element types TFLite Micro's SPLIT takes (the same for the input and every output).
SPLIT_DTYPES = (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32)


@dataclasses.dataclass(frozen=True)
class SplitAttributes:
    num_splits: int = 1  # the number of equal parts (and of outputs)
