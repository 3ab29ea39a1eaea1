"""RELU on int8: rescale to the output's quantization, then clamp below at its zero point; on float32:
x < 0 ? 0 : x (TFLite Micro's ReluFloat; NaN and -0.0 pass through)."""

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.common import INT8_MAX, INT8_MIN, float32_divide, require_dtype, require_quantization
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.elementwise import emit_float32_unary, emit_requantize, float32_unary_reference, requantize
from opbridge.ops.relu.schema import RELU_SCHEMA
from opbridge.quantization.fixed_point import quantize_multiplier


def relu_parameters(node: Node, input_tensor: Tensor, output: Tensor) -> tuple[int, int, int, int, int]:
    """(input zero point, multiplier, shift, output zero point, lower clamp)."""
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    # TFLite Micro divides the scales in float32.
    multiplier, shift = quantize_multiplier(float32_divide(input_q.scale, output_q.scale))
    return input_q.zero_point, multiplier, shift, output_q.zero_point, max(INT8_MIN, output_q.zero_point)


def float32_relu(values: Array) -> Array:
    return np.where(values < np.float32(0.0), np.float32(0.0), values)


def relu_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_relu)
    zero_point, multiplier, shift, output_zero_point, low = relu_parameters(
        call.node, call.input_tensor(0), call.outputs[0]
    )
    return [requantize(call.value(0), zero_point, multiplier, shift, output_zero_point, low, INT8_MAX)]


def emit_relu(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_float32_unary(ctx, node, "opbridge_relu_f32")
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    zero_point, multiplier, shift, output_zero_point, low = relu_parameters(node, input_tensor, output)
    return emit_requantize(ctx, node, zero_point, multiplier, shift, output_zero_point, low, INT8_MAX)


RELU = OperatorDefinition(
    op_type="RELU",
    reference=relu_reference,
    litert_builtin_code=BuiltinOperator.RELU,
    litert_versions=frozenset({1, 2, 3}),
    emit_c=emit_relu,
    doc=__doc__ or "",
    schema=RELU_SCHEMA,
)
