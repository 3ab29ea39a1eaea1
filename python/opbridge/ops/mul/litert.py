# SPDX-License-Identifier: Apache-2.0
"""MUL: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> AddAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return AddAttributes()
    options = tflite.MulOptions()
    options.Init(table.Bytes, table.Pos)
    return AddAttributes(activation=litert_activation(options.FusedActivationFunction()))


LITERT_CODE = BuiltinOperator.MUL
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
