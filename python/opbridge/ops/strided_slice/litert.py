# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.strided_slice.attributes import StridedSliceAttributes


def parse_litert_options(operator: Any) -> StridedSliceAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return StridedSliceAttributes()
    options = tflite.StridedSliceOptions()
    options.Init(table.Bytes, table.Pos)
    return StridedSliceAttributes(
        begin_mask=options.BeginMask(),
        end_mask=options.EndMask(),
        ellipsis_mask=options.EllipsisMask(),
        new_axis_mask=options.NewAxisMask(),
        shrink_axis_mask=options.ShrinkAxisMask(),
        offset=bool(options.Offset()),
    )


LITERT_CODE = BuiltinOperator.STRIDED_SLICE
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7, 8})
