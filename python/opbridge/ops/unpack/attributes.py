# SPDX-License-Identifier: Apache-2.0
"""UNPACK's attributes (TFLite's UnpackOptions)."""

import dataclasses

from opbridge.ir import DType

# The element types TFLite Micro's UNPACK takes (the same for the input and every output).
UNPACK_DTYPES = (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32)


@dataclasses.dataclass(frozen=True)
class UnpackAttributes:
    num: int = 1  # the number of outputs: the input's size along axis
    axis: int = 0  # the input axis taken apart, in [-rank, rank)
