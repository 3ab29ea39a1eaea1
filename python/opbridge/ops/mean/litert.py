# SPDX-License-Identifier: Apache-2.0
"""MEAN: the LiteRT importer (builtin code, versions, options parser)."""

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


LITERT_CODE = BuiltinOperator.MEAN
LITERT_VERSIONS = frozenset({1, 2, 3})
