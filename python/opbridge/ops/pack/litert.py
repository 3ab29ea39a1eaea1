# SPDX-License-Identifier: Apache-2.0
"""PACK: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.pack.attributes import PackAttributes


def parse_litert_options(operator: Any) -> PackAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return PackAttributes(values_count=operator.InputsLength())
    options = tflite.PackOptions()
    options.Init(table.Bytes, table.Pos)
    return PackAttributes(values_count=options.ValuesCount(), axis=options.Axis())


LITERT_CODE = BuiltinOperator.PACK
# TFLite's versions (op_version.cc): 1 float32, int32 and int64, 2 int8, 3 int16.
LITERT_VERSIONS = frozenset({1, 2, 3})
