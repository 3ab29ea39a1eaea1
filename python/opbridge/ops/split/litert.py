# SPDX-License-Identifier: Apache-2.0
"""SPLIT: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.split.attributes import SplitAttributes


def parse_litert_options(operator: Any) -> SplitAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        # No options: one part per output, as TFLite Micro (which never reads num_splits) cuts it.
        return SplitAttributes(num_splits=operator.OutputsLength())
    options = tflite.SplitOptions()
    options.Init(table.Bytes, table.Pos)
    return SplitAttributes(num_splits=options.NumSplits())


LITERT_CODE = BuiltinOperator.SPLIT
# TFLite's versions (op_version.cc): 1 float32, 2 int8, 3 int32, 4 int16.
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
