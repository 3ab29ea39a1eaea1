# SPDX-License-Identifier: Apache-2.0
"""SUM: the LiteRT importer (builtin code, versions, ReducerOptions parser, as MEAN's).

Version 2 (int8) is accepted here so that an int8 model is refused by the schema, with a message
naming the dtype, rather than by its version number.
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


LITERT_CODE = BuiltinOperator.SUM
LITERT_VERSIONS = frozenset({1, 2})
