# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX: the LiteRT importer (builtin code, versions, ReducerOptions parser, as MEAN's).

TFLite versions REDUCE_MAX 1 for float32 and 2 for int8 (3, int16, is not in TFLite Micro's kernel).
"""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.mean.attributes import MeanAttributes


def parse_litert_options(operator: Any) -> MeanAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return MeanAttributes()
    options = tflite.ReducerOptions()
    options.Init(table.Bytes, table.Pos)
    return MeanAttributes(keep_dims=bool(options.KeepDims()))


LITERT_CODE = BuiltinOperator.REDUCE_MAX
LITERT_VERSIONS = frozenset({1, 2})
