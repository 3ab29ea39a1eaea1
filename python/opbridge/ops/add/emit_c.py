# SPDX-License-Identifier: Apache-2.0
"""ADD -> opbridge_add_s8, opbridge_add_s32 or opbridge_add_f32 (and SUB -> opbridge_sub_s8), with broadcasting
as 4-D strides."""

from collections.abc import Callable

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode, c_int_list
from opbridge.ir import DType, Node, Quantization
from opbridge.ir.attribute_types import Activation
from opbridge.ops.add.reference import LEFT_SHIFT, AddParameters, add_parameters, is_int32_add
from opbridge.ops.shared.emit_elementwise import (
    emit_float32_binary,
    emit_int_binary,
    output_shape_4d,
    strides_initializer,
)
from opbridge.ops.shared.quantized import activation_range, int8_operands


def emit_add(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    if graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, "opbridge_add_f32", node.attributes.activation)
    if is_int32_add(node, first, second, graph.tensor(node.outputs[0])):
        # TFLite Micro ignores an int32 ADD's fused activation (see reference.py).
        return emit_int_binary(ctx, node, "opbridge_add_s32", Activation.NONE)
    return emit_add_or_sub(ctx, node, add_parameters, "opbridge_add_s8")


def emit_add_or_sub(
    ctx: EmitContext,
    node: Node,
    parameters: Callable[[Quantization, Quantization, Quantization], AddParameters],
    kernel: str,
) -> NodeCode:
    """ADD or SUB: the same kernel parameters, multipliers from `parameters`."""
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output = graph.tensor(node.outputs[0])
    first_q, second_q, output_q = int8_operands(node, [("input 0", first), ("input 1", second), ("output", output)])
    output_shape = output_shape_4d(node, output)
    p = parameters(first_q, second_q, output_q)
    low, high = activation_range(node.attributes.activation, output_q)
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_add_s8_params {params_symbol} = {{
    .input1_offset = {-first_q.zero_point},
    .input2_offset = {-second_q.zero_point},
    .output_offset = {output_q.zero_point},
    .left_shift = {LEFT_SHIFT},
    .input1_multiplier = {p.first_multiplier},
    .input1_shift = {p.first_shift},
    .input2_multiplier = {p.second_multiplier},
    .input2_shift = {p.second_shift},
    .output_multiplier = {p.output_multiplier},
    .output_shift = {p.output_shift},
    .activation_min = {low},
    .activation_max = {high},
    .output_shape = {{{c_int_list(output_shape)}}},
    .input1_strides = {strides_initializer(node, first, output_shape)},
    .input2_strides = {strides_initializer(node, second, output_shape)},
}};"""
    call = (
        f"status = {kernel}(&{params_symbol}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.inputs[1])}, "
        f"{ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[KERNELS_HEADER], definitions=[params], statements=[call])
