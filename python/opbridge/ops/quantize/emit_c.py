# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.quantize.reference import output_quantization, requantization_of
from opbridge.ops.shared.emit_elementwise import emit_requantize
from opbridge.ops.shared.quantized import INT8_MAX, INT8_MIN, require_dtype, require_quantization
from opbridge.quantization.fixed_point import quantize_multiplier


def emit_quantize(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    require_dtype(node, input_tensor, "input", (DType.FLOAT32, DType.INT8))
    require_dtype(node, output, "output")
    output_q = output_quantization(node, output)
    if input_tensor.dtype is DType.FLOAT32:
        half_to_even = int(requantization_of(node) is Requantization.ONNX)
        call = (
            f"status = opbridge_quantize_f32_s8({input_tensor.element_count}, {float(output_q.scale)!r}f, "
            f"{output_q.zero_point}, {half_to_even}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.outputs[0])});"
        )
        return NodeCode(includes=[KERNELS_HEADER], statements=[call])
    input_q = require_quantization(node, input_tensor, "input")
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    return emit_requantize(ctx, node, input_q.zero_point, multiplier, shift, output_q.zero_point, INT8_MIN, INT8_MAX)
