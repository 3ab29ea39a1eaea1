# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D -> opbridge_max_pool_2d_s8 or opbridge_max_pool_2d_f32 (parameters shared with AVERAGE_POOL_2D)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.average_pool_2d.emit_c import emit_pool_2d


def emit_max_pool_2d(ctx: EmitContext, node: Node) -> NodeCode:
    return emit_pool_2d(ctx, node, "opbridge_max_pool_2d")
