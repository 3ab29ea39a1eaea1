# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR: the LiteRT importer (builtin code, versions, ResizeNearestNeighborOptions).

TFLite versions it 1 for float32, 2 for int8, 3 with half_pixel_centers or
align_corners, 4 for int16. A missing options table reads as both options off.
"""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.resize_nearest_neighbor.attributes import ResizeAttributes


def parse_litert_options(operator: Any) -> ResizeAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return ResizeAttributes()
    options = tflite.ResizeNearestNeighborOptions()
    options.Init(table.Bytes, table.Pos)
    return ResizeAttributes(bool(options.AlignCorners()), bool(options.HalfPixelCenters()))


LITERT_CODE = BuiltinOperator.RESIZE_NEAREST_NEIGHBOR
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
