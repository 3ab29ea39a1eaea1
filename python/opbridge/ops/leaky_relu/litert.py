# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.leaky_relu.attributes import LeakyReluAttributes


def parse_litert_options(operator: Any) -> LeakyReluAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return LeakyReluAttributes(alpha=0.0)  # a missing table reads as FlatBuffers' default, 0
    options = tflite.LeakyReluOptions()
    options.Init(table.Bytes, table.Pos)
    return LeakyReluAttributes(alpha=float(options.Alpha()))


LITERT_CODE = BuiltinOperator.LEAKY_RELU
LITERT_VERSIONS = frozenset({1, 2})
