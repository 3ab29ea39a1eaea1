# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D's schema: as AVERAGE_POOL_2D's, each window's maximum."""

from opbridge.ops.average_pool_2d.schema import pool_2d_schema

MAX_POOL_2D_SCHEMA = pool_2d_schema(
    "MAX_POOL_2D",
    "Maximum over each filter window, clipped to the input.",
    "[batch, out_height, out_width, channels]: each window's maximum",
)
