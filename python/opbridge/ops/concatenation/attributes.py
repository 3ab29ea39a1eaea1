# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir import DType
from opbridge.ir.attribute_types import Activation

# The types TFLite Micro's CONCATENATION takes (the same for every input and the output).
CONCATENATION_DTYPES = (DType.BOOL, DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.FLOAT32)


@dataclasses.dataclass(frozen=True)
class ConcatenationAttributes:
    axis: int = 0
    activation: Activation = Activation.NONE
