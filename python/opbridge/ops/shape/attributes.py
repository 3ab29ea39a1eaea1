# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir import DType


@dataclasses.dataclass(frozen=True)
class ShapeAttributes:
    # The output's type: int32 (TFLite's default) or int64 (ShapeOptions.out_type).
    out_type: DType = DType.INT32
