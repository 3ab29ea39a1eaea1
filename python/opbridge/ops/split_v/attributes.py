# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V's attributes (TFLite's SplitVOptions)."""

import dataclasses

from opbridge.ir import DType

# The element types TFLite Micro's SPLIT_V takes (the same for the input and every output).
SPLIT_V_DTYPES = (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32)
# The types of the size_splits input.
SIZE_SPLITS_DTYPES = (DType.INT32, DType.INT64)


@dataclasses.dataclass(frozen=True)
class SplitVAttributes:
    num_splits: int = 1  # the number of parts (and of outputs)
