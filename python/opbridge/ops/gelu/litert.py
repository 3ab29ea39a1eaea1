# SPDX-License-Identifier: Apache-2.0
"""GELU: the LiteRT importer (builtin code, versions, GeluOptions). Version 1 is float32, version 2 int8."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.gelu.attributes import GeluAttributes


def parse_litert_options(operator: Any) -> GeluAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return GeluAttributes(approximate=False)  # a missing table reads as FlatBuffers' default, false
    options = tflite.GeluOptions()
    options.Init(table.Bytes, table.Pos)
    return GeluAttributes(approximate=bool(options.Approximate()))


LITERT_CODE = BuiltinOperator.GELU
LITERT_VERSIONS = frozenset({1, 2})
