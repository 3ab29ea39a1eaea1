# SPDX-License-Identifier: Apache-2.0
"""RELU6: C emitter."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.relu6.reference import IDENTITY_MULTIPLIER, IDENTITY_SHIFT, relu6_bounds
from opbridge.ops.shared.emit_elementwise import emit_float32_unary, emit_requantize
from opbridge.ops.shared.quantized import require_dtype


def emit_relu6(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor = ctx.graph.tensor(node.inputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_float32_unary(ctx, node, "opbridge_relu6_f32")
    require_dtype(node, input_tensor, "input")
    require_dtype(node, ctx.graph.tensor(node.outputs[0]), "output")
    zero_point, low, high = relu6_bounds(node, input_tensor)
    return emit_requantize(ctx, node, zero_point, IDENTITY_MULTIPLIER, IDENTITY_SHIFT, zero_point, low, high)
