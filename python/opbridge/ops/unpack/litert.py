# SPDX-License-Identifier: Apache-2.0
"""UNPACK: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.unpack.attributes import UnpackAttributes


def parse_litert_options(operator: Any) -> UnpackAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return UnpackAttributes(num=operator.OutputsLength())
    options = tflite.UnpackOptions()
    options.Init(table.Bytes, table.Pos)
    return UnpackAttributes(num=options.Num(), axis=options.Axis())


LITERT_CODE = BuiltinOperator.UNPACK
# TFLite's versions (op_version.cc): 1 float32 and int32, 2 int8, 4 int16 (3 is bool, which TFLite Micro's
# UNPACK does not take).
LITERT_VERSIONS = frozenset({1, 2, 4})
