"""RELU6 on int8: clamp to [input zero point, quantized 6] (TFLite Micro does not rescale); on float32:
x > 6 ? 6 : (x < 0 ? 0 : x) (TFLite Micro's Relu6Float; NaN passes through)."""

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.common import INT8_MAX, INT8_MIN, float32_divide, require_dtype, require_quantization
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.elementwise import emit_float32_unary, emit_requantize, float32_unary_reference, requantize
from opbridge.ops.relu6.schema import RELU6_SCHEMA
from opbridge.quantization.fixed_point import round_half_away_from_zero

# Q0.31 multiplier 2^30 with shift 1 rescales by exactly 1.
IDENTITY_MULTIPLIER, IDENTITY_SHIFT = 1 << 30, 1


def relu6_bounds(node: Node, input_tensor: Tensor) -> tuple[int, int, int]:
    """(zero point, lower bound, upper bound), all in the input's quantization."""
    input_q = require_quantization(node, input_tensor, "input")
    six = round_half_away_from_zero(float32_divide(6.0, input_q.scale)) + input_q.zero_point
    return input_q.zero_point, input_q.zero_point, min(INT8_MAX, max(INT8_MIN, six))


def float32_relu6(values: Array) -> Array:
    zero, six = np.float32(0.0), np.float32(6.0)
    return np.where(values > six, six, np.where(values < zero, zero, values))


def relu6_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_relu6)
    zero_point, low, high = relu6_bounds(call.node, call.input_tensor(0))
    return [requantize(call.value(0), zero_point, IDENTITY_MULTIPLIER, IDENTITY_SHIFT, zero_point, low, high)]


def emit_relu6(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor = ctx.graph.tensor(node.inputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_float32_unary(ctx, node, "opbridge_relu6_f32")
    require_dtype(node, input_tensor, "input")
    require_dtype(node, ctx.graph.tensor(node.outputs[0]), "output")
    zero_point, low, high = relu6_bounds(node, input_tensor)
    return emit_requantize(ctx, node, zero_point, IDENTITY_MULTIPLIER, IDENTITY_SHIFT, zero_point, low, high)


RELU6 = OperatorDefinition(
    op_type="RELU6",
    reference=relu6_reference,
    litert_builtin_code=BuiltinOperator.RELU6,
    litert_versions=frozenset({1, 2, 3}),
    emit_c=emit_relu6,
    doc=__doc__ or "",
    schema=RELU6_SCHEMA,
)
