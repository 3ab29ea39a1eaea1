# SPDX-License-Identifier: Apache-2.0
"""RESIZE_BILINEAR's schema: NHWC float32 or int8 resized to a constant size (RESIZE_NEAREST_NEIGHBOR's shape)."""

from opbridge.ops.resize_bilinear.reference import BILINEAR_DTYPES
from opbridge.ops.resize_nearest_neighbor.schema import resize_schema

RESIZE_BILINEAR_SCHEMA = resize_schema(
    "RESIZE_BILINEAR",
    "Resizes height and width to `size`, each output pixel interpolated from its four nearest input pixels "
    "(TFLite's float32 arithmetic, or its 10-bit fixed point on int8).",
    BILINEAR_DTYPES,
)
