# SPDX-License-Identifier: Apache-2.0
"""MUL: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields, int_array
from opbridge.ir import DType, Node
from opbridge.ops.mul.reference import is_int32_mul
from opbridge.ops.shared.emit_elementwise import (
    emit_broadcast_binary,
    emit_float32_binary,
    emit_int_binary,
    output_shape_4d,
    strides_initializer,
)
from opbridge.ops.shared.quantized import activation_range, int8_operands
from opbridge.ops.shared.wide_dtypes import S64_KERNELS_HEADER
from opbridge.quantization.fixed_point import quantize_multiplier


def emit_mul(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output = graph.tensor(node.outputs[0])
    if graph.tensor(node.outputs[0]).dtype is DType.INT64:
        return emit_broadcast_binary(ctx, node, "opbridge_mul_s64", S64_KERNELS_HEADER, "opbridge_broadcast_4d", None)
    if output.dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, "opbridge_mul_f32", node.attributes.activation)
    if is_int32_mul(node, first, second, output):
        return emit_int_binary(ctx, node, "opbridge_mul_s32", node.attributes.activation)
    first_q, second_q, output_q = int8_operands(node, [("input 0", first), ("input 1", second), ("output", output)])
    output_shape = output_shape_4d(node, output)
    multiplier, shift = quantize_multiplier(first_q.scale * second_q.scale / output_q.scale)
    low, high = activation_range(node.attributes.activation, output_q)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_mul_s8_params",
        params_symbol,
        fields(
            input1_offset=-first_q.zero_point,
            input2_offset=-second_q.zero_point,
            output_offset=output_q.zero_point,
            output_multiplier=multiplier,
            output_shift=shift,
            activation_min=low,
            activation_max=high,
            output_shape=int_array(output_shape),
            input1_strides=strides_initializer(node, first, output_shape),
            input2_strides=strides_initializer(node, second, output_shape),
        ),
    )
    call = KernelCall(
        "opbridge_mul_s8",
        params,
        (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0])),
    )
    return NodeCode(includes=[KERNELS_HEADER], call=call)
