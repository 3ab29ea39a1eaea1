from typing import Any

import tflite

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
