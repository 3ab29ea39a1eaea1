# SPDX-License-Identifier: Apache-2.0
"""RELU: C emitter."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.relu.reference import relu_parameters
from opbridge.ops.shared.emit_elementwise import emit_float32_unary, emit_requantize
from opbridge.ops.shared.quantized import INT8_MAX, require_dtype


def emit_relu(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_float32_unary(ctx, node, "opbridge_relu_f32")
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    zero_point, multiplier, shift, output_zero_point, low = relu_parameters(node, input_tensor, output)
    return emit_requantize(ctx, node, zero_point, multiplier, shift, output_zero_point, low, INT8_MAX)
