# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.softmax.attributes import SoftmaxAttributes


def parse_litert_options(operator: Any) -> SoftmaxAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return SoftmaxAttributes()
    options = tflite.SoftmaxOptions()
    options.Init(table.Bytes, table.Pos)
    return SoftmaxAttributes(beta=float(options.Beta()))


LITERT_CODE = BuiltinOperator.SOFTMAX
LITERT_VERSIONS = frozenset({1, 2, 3})
