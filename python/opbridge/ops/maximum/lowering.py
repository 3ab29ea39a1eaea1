"""MAXIMUM -> opbridge_maximum_<s8|s16|s32|f32>, with broadcasting as 4-D strides."""

from opbridge.backends.c.lowering import LoweringContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.elementwise import lower_min_max


def lower_maximum(ctx: LoweringContext, node: Node) -> NodeCode:
    return lower_min_max(ctx, node, "maximum")
