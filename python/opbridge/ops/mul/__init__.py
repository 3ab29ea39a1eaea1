"""MUL: element-wise product of two int8 tensors, two plain int32 or two float32 tensors (broadcasting).

int32 is TFLite Micro's unquantized path: the product wraps around on
overflow, then the fused activation clamps the raw value (RELU6 to [0, 6]).
float32: the float32 product, then the fused activation's clamp.
"""

from typing import Any

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.common import activation_range, int8_operands, litert_activation, require_quantization
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.elementwise import (
    broadcast_binary_reference,
    emit_float32_binary,
    emit_int_binary,
    float32_binary_reference,
    int32_activation_range,
    output_shape_4d,
    plain_integer_operands,
    strides_initializer,
    wrap_integers,
)
from opbridge.ops.mul.schema import MUL_SCHEMA
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier


def is_int32_mul(node: Node, first: Tensor, second: Tensor, output: Tensor) -> bool:
    """True for an int32 MUL (checked; TFLite Micro ignores int32 quantization here); False for int8."""
    if output.dtype is not DType.INT32:
        return False
    plain_integer_operands(node, first, second, output, (DType.INT32,))
    return True


def mul_reference(call: ReferenceCall) -> list[Array]:
    if call.outputs[0].dtype is DType.FLOAT32:
        return float32_binary_reference(call, np.multiply, call.attributes.activation)
    if is_int32_mul(call.node, call.input_tensor(0), call.input_tensor(1), call.outputs[0]):
        low, high = int32_activation_range(call.attributes.activation)
        return broadcast_binary_reference(
            call, lambda a, b: np.clip(wrap_integers(a * b, DType.INT32), low, high), DType.INT32
        )
    first_q = require_quantization(call.node, call.input_tensor(0), "input 0")
    second_q = require_quantization(call.node, call.input_tensor(1), "input 1")
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    multiplier, shift = quantize_multiplier(first_q.scale * second_q.scale / output_q.scale)
    product = (call.value(0).astype(np.int64) - first_q.zero_point) * (
        call.value(1).astype(np.int64) - second_q.zero_point
    )
    result = multiply_by_quantized_multiplier(product, multiplier, shift) + output_q.zero_point
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(result, low, high).astype(np.int8).reshape(output.shape)]


def emit_mul(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output = graph.tensor(node.outputs[0])
    if output.dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, "opbridge_mul_f32", node.attributes.activation)
    if is_int32_mul(node, first, second, output):
        return emit_int_binary(ctx, node, "opbridge_mul_s32", node.attributes.activation)
    first_q, second_q, output_q = int8_operands(node, [("input 0", first), ("input 1", second), ("output", output)])
    output_shape = output_shape_4d(node, output)
    multiplier, shift = quantize_multiplier(first_q.scale * second_q.scale / output_q.scale)
    low, high = activation_range(node.attributes.activation, output_q)
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_mul_s8_params {params_symbol} = {{
    .input1_offset = {-first_q.zero_point},
    .input2_offset = {-second_q.zero_point},
    .output_offset = {output_q.zero_point},
    .output_multiplier = {multiplier},
    .output_shift = {shift},
    .activation_min = {low},
    .activation_max = {high},
    .output_shape = {{{", ".join(map(str, output_shape))}}},
    .input1_strides = {strides_initializer(node, first, output_shape)},
    .input2_strides = {strides_initializer(node, second, output_shape)},
}};"""
    call = (
        f"status = opbridge_mul_s8(&{params_symbol}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.inputs[1])}, "
        f"{ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[KERNELS_HEADER], definitions=[params], statements=[call])


def parse_litert_options(operator: Any) -> AddAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return AddAttributes()
    options = tflite.MulOptions()
    options.Init(table.Bytes, table.Pos)
    return AddAttributes(activation=litert_activation(options.FusedActivationFunction()))


MUL = OperatorDefinition(
    op_type="MUL",
    reference=mul_reference,
    litert_builtin_code=BuiltinOperator.MUL,
    litert_versions=frozenset({1, 2, 3, 4}),
    parse_litert_options=parse_litert_options,
    emit_c=emit_mul,
    doc=__doc__ or "",
    schema=MUL_SCHEMA,
)
