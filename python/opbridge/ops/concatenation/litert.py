# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> ConcatenationAttributes:
    table = operator.BuiltinOptions()
    options = tflite.ConcatenationOptions()
    options.Init(table.Bytes, table.Pos)
    return ConcatenationAttributes(axis=options.Axis(), activation=litert_activation(options.FusedActivationFunction()))


LITERT_CODE = BuiltinOperator.CONCATENATION
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
