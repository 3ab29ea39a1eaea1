# SPDX-License-Identifier: Apache-2.0
"""DEPTHWISE_CONV_2D -> opbridge_depthwise_conv_2d_s8_folded or opbridge_depthwise_conv_2d_s8
(shared with CONV_2D's emitter, which chooses)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.conv_2d.emit_c import emit_convolution


def emit_depthwise_conv_2d(ctx: EmitContext, node: Node) -> NodeCode:
    return emit_convolution(ctx, node, depthwise=True)
