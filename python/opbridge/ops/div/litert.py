# SPDX-License-Identifier: Apache-2.0
"""DIV: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.div.attributes import DivAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> DivAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return DivAttributes()
    options = tflite.DivOptions()
    options.Init(table.Bytes, table.Pos)
    return DivAttributes(activation=litert_activation(options.FusedActivationFunction()))


LITERT_CODE = BuiltinOperator.DIV
LITERT_VERSIONS = frozenset({1, 2})
