# SPDX-License-Identifier: Apache-2.0
"""DIV -> opbridge_div_s32 or opbridge_div_f32, with broadcasting as 4-D strides."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.div.reference import check_div
from opbridge.ops.shared.emit_elementwise import emit_float32_binary, emit_int_binary


def emit_div(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    if graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, "opbridge_div_f32", node.attributes.activation)
    check_div(node, graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1]), graph.tensor(node.outputs[0]))
    return emit_int_binary(ctx, node, "opbridge_div_s32", node.attributes.activation)
