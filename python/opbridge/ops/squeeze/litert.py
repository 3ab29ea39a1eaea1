# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.squeeze.attributes import SqueezeAttributes


def parse_litert_options(operator: Any) -> SqueezeAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return SqueezeAttributes()
    options = tflite.SqueezeOptions()
    options.Init(table.Bytes, table.Pos)
    return SqueezeAttributes(
        squeeze_dims=tuple(int(options.SqueezeDims(i)) for i in range(options.SqueezeDimsLength()))
    )


LITERT_CODE = BuiltinOperator.SQUEEZE
LITERT_VERSIONS = frozenset({1, 2})
