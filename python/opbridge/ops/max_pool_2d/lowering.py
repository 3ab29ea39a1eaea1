"""MAX_POOL_2D -> opbridge_max_pool_2d_s8 or opbridge_max_pool_2d_f32 (parameters shared with AVERAGE_POOL_2D)."""

from opbridge.backends.c.lowering import LoweringContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.average_pool_2d.lowering import lower_pool_2d


def lower_max_pool_2d(ctx: LoweringContext, node: Node) -> NodeCode:
    return lower_pool_2d(ctx, node, "opbridge_max_pool_2d")
