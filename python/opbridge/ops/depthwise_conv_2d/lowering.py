"""DEPTHWISE_CONV_2D -> opbridge_depthwise_conv_2d_s8 (shared with CONV_2D's lowering)."""

from opbridge.backends.c.lowering import LoweringContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.conv_2d.lowering import lower_convolution


def lower_depthwise_conv_2d(ctx: LoweringContext, node: Node) -> NodeCode:
    return lower_convolution(ctx, node, depthwise=True)
