# SPDX-License-Identifier: Apache-2.0
"""RESIZE_BILINEAR: the LiteRT importer (builtin code, versions, ResizeBilinearOptions).

TFLite versions it 1 for float32, 2 for int8, 3 with half_pixel_centers, 4
for int16 (which TFLite Micro does not take). A missing options table reads
as both options off.
"""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.resize_nearest_neighbor.attributes import ResizeAttributes


def parse_litert_options(operator: Any) -> ResizeAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return ResizeAttributes()
    options = tflite.ResizeBilinearOptions()
    options.Init(table.Bytes, table.Pos)
    return ResizeAttributes(bool(options.AlignCorners()), bool(options.HalfPixelCenters()))


LITERT_CODE = BuiltinOperator.RESIZE_BILINEAR
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
