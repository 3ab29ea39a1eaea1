# SPDX-License-Identifier: Apache-2.0
"""SHAPE: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType
from opbridge.ops.shape.attributes import ShapeAttributes

_OUT_TYPES = {tflite.TensorType.INT32: DType.INT32, tflite.TensorType.INT64: DType.INT64}


def parse_litert_options(operator: Any) -> ShapeAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return ShapeAttributes()
    options = tflite.ShapeOptions()
    options.Init(table.Bytes, table.Pos)
    out_type = _OUT_TYPES.get(options.OutType())
    if out_type is None:
        raise UnsupportedTensorError(
            f"SHAPE with out_type {options.OutType()} (a tflite.TensorType code)",
            hint="SHAPE gives int32 or int64, as in TFLite",
        )
    return ShapeAttributes(out_type=out_type)


LITERT_CODE = BuiltinOperator.SHAPE
LITERT_VERSIONS = frozenset({1})
