# SPDX-License-Identifier: Apache-2.0
"""RESIZE_BILINEAR -> opbridge_resize_bilinear_f32 or _s8 (cc/kernels/opbridge_resize.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.resize_bilinear.reference import check_bilinear
from opbridge.ops.resize_nearest_neighbor.emit_c import resize_call


def emit_resize_bilinear(ctx: EmitContext, node: Node) -> NodeCode:
    geometry = check_bilinear(ctx.graph, node)
    float32 = ctx.graph.tensor(node.inputs[0]).dtype is DType.FLOAT32
    kernel = "opbridge_resize_bilinear_f32" if float32 else "opbridge_resize_bilinear_s8"
    return resize_call(ctx, node, geometry, kernel)
