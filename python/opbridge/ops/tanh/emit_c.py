# SPDX-License-Identifier: Apache-2.0
"""TANH: C emitter."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.logistic.emit_c import emit_activation
from opbridge.ops.shared.emit_elementwise import emit_float32_unary


def emit_tanh(ctx: EmitContext, node: Node) -> NodeCode:
    if ctx.graph.tensor(node.inputs[0]).dtype is DType.FLOAT32:
        return emit_float32_unary(ctx, node, "opbridge_tanh_f32")
    return emit_activation(ctx, node, "opbridge_tanh_s8")
