# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL: the LiteRT importer (builtin code, versions, BatchMatMulOptions parser).

TFLite versions BATCH_MATMUL 1 (float32), 2 (int8), 3 (int16) and 4 (int8 with an int32 output, which TFLite Micro
refuses); asymmetric_quantize_inputs only concerns hybrid kernels (float32 lhs, int8 rhs), which TFLite Micro refuses
too, so it is not kept.
"""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.batch_matmul.attributes import BatchMatMulAttributes


def parse_litert_options(operator: Any) -> BatchMatMulAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return BatchMatMulAttributes()
    options = tflite.BatchMatMulOptions()
    options.Init(table.Bytes, table.Pos)
    return BatchMatMulAttributes(adj_x=bool(options.AdjX()), adj_y=bool(options.AdjY()))


LITERT_CODE = BuiltinOperator.BATCH_MATMUL
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
