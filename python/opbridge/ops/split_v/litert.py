# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.split_v.attributes import SplitVAttributes


def parse_litert_options(operator: Any) -> SplitVAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        # No options: one part per output, as TFLite Micro (which never reads num_splits) cuts it.
        return SplitVAttributes(num_splits=operator.OutputsLength())
    options = tflite.SplitVOptions()
    options.Init(table.Bytes, table.Pos)
    return SplitVAttributes(num_splits=options.NumSplits())


LITERT_CODE = BuiltinOperator.SPLIT_V
# TFLite's versions (op_version.cc): 1 float32, int16 and int32, 2 int8.
LITERT_VERSIONS = frozenset({1, 2})
