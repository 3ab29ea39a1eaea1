# SPDX-License-Identifier: Apache-2.0
"""GATHER: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.gather.attributes import GatherAttributes


def parse_litert_options(operator: Any) -> GatherAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return GatherAttributes()
    options = tflite.GatherOptions()
    options.Init(table.Bytes, table.Pos)
    return GatherAttributes(axis=options.Axis(), batch_dims=options.BatchDims())


LITERT_CODE = BuiltinOperator.GATHER
# TFLite's versions: 1 float32, int32 and others, 2 int8, 3 bool, 4 int16, 5 batch_dims, 6 int16 positions;
# what opbridge does not take (batch_dims, int16) is refused by name, not by version.
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6})
