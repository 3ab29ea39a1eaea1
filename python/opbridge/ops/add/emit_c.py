# SPDX-License-Identifier: Apache-2.0
"""ADD -> opbridge_add_s8_table (int8, inputs of the output's shape: per-input tables built here),
opbridge_add_s8 (int8 with broadcasting as 4-D strides), opbridge_add_s16 (int16, 16x8), opbridge_add_s32 or
opbridge_add_f32; SUB uses the int8 ones too (opbridge_sub_s8)."""

from collections.abc import Callable

import numpy as np

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import CExpression, KernelCall, ParamStruct, fields, int_array
from opbridge.ir import DType, Node, Quantization
from opbridge.ir.attribute_types import Activation
from opbridge.ops.add.reference import (
    INT16_LEFT_SHIFT,
    LEFT_SHIFT,
    AddParameters,
    add_parameters,
    int16_add_parameters,
    is_int32_add,
)
from opbridge.ops.shared.emit_elementwise import (
    emit_broadcast_binary,
    emit_float32_binary,
    emit_int_binary,
    output_shape_4d,
    strides_initializer,
)
from opbridge.ops.shared.folded import FOLDED_KERNELS_HEADER
from opbridge.ops.shared.quantized import activation_range, int8_operands, require_dtype, require_quantization
from opbridge.ops.shared.wide_dtypes import S64_KERNELS_HEADER
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier


def emit_add(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    if graph.tensor(node.outputs[0]).dtype is DType.INT64:
        return emit_broadcast_binary(ctx, node, "opbridge_add_s64", S64_KERNELS_HEADER, "opbridge_broadcast_4d", None)
    if graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, "opbridge_add_f32", node.attributes.activation)
    if is_int32_add(node, first, second, graph.tensor(node.outputs[0])):
        # TFLite Micro ignores an int32 ADD's fused activation (see reference.py).
        return emit_int_binary(ctx, node, "opbridge_add_s32", Activation.NONE)
    if graph.tensor(node.outputs[0]).dtype is DType.INT16:
        return emit_add_int16(ctx, node)
    return emit_add_or_sub(ctx, node, add_parameters, "opbridge_add_s8")


def emit_add_int16(ctx: EmitContext, node: Node) -> NodeCode:
    """16x8 ADD: opbridge_add_s16, TFLite Micro's general path with 15 bits of headroom."""
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output = graph.tensor(node.outputs[0])
    operands = [("input 0", first), ("input 1", second), ("output", output)]
    for role, tensor in operands:
        require_dtype(node, tensor, role, (DType.INT16,))
    first_q, second_q, output_q = (require_quantization(node, tensor, role) for role, tensor in operands)
    p = int16_add_parameters(node)(first_q, second_q, output_q)
    low, high = activation_range(node.attributes.activation, output_q, DType.INT16)
    params = add_params_definition(ctx, node, p, (first_q, second_q, output_q), (low, high), INT16_LEFT_SHIFT)
    call = KernelCall(
        "opbridge_add_s16",
        params,
        (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0])),
    )
    return NodeCode(includes=["cc/kernels/opbridge_kernels_s16.h"], call=call)


def add_params_definition(
    ctx: EmitContext,
    node: Node,
    p: AddParameters,
    quantizations: tuple[Quantization, Quantization, Quantization],
    bounds: tuple[int, int],
    left_shift: int,
) -> ParamStruct:
    """The node's static const opbridge_add_s8_params (4-D broadcast strides of both inputs)."""
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output_shape = output_shape_4d(node, graph.tensor(node.outputs[0]))
    first_q, second_q, output_q = quantizations
    return ParamStruct(
        "opbridge_add_s8_params",
        ctx.local_symbol(node, "params"),
        fields(
            input1_offset=-first_q.zero_point,
            input2_offset=-second_q.zero_point,
            output_offset=output_q.zero_point,
            left_shift=left_shift,
            input1_multiplier=p.first_multiplier,
            input1_shift=p.first_shift,
            input2_multiplier=p.second_multiplier,
            input2_shift=p.second_shift,
            output_multiplier=p.output_multiplier,
            output_shift=p.output_shift,
            activation_min=bounds[0],
            activation_max=bounds[1],
            output_shape=int_array(output_shape),
            input1_strides=strides_initializer(node, first, output_shape),
            input2_strides=strides_initializer(node, second, output_shape),
        ),
    )


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
    output_shape_4d(node, output)  # refuses a rank above 4 before either form is chosen
    p = parameters(first_q, second_q, output_q)
    low, high = activation_range(node.attributes.activation, output_q)
    if tuple(first.shape) == tuple(second.shape) == tuple(output.shape) and p.output_shift <= 0:
        return emit_table_form(ctx, node, p, (first_q, second_q, output_q), (low, high), kernel == "opbridge_sub_s8")
    params = add_params_definition(ctx, node, p, (first_q, second_q, output_q), (low, high), LEFT_SHIFT)
    call = KernelCall(
        kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0]))
    )
    return NodeCode(includes=[KERNELS_HEADER], call=call)


def input_stage_table(zero_point: int, multiplier: int, shift: int, sign: int = 1) -> np.ndarray:
    """TFLite Micro's per-input stage of ADD for every int8 value -128..127: (value - zero point),
    shifted left by LEFT_SHIFT, times the input's multiplier; negated for SUB's second input."""
    values = np.arange(-128, 128, dtype=np.int64)
    return sign * multiply_by_quantized_multiplier((values - zero_point) << LEFT_SHIFT, multiplier, shift)


def emit_table_form(
    ctx: EmitContext,
    node: Node,
    p: AddParameters,
    quantizations: tuple[Quantization, Quantization, Quantization],
    bounds: tuple[int, int],
    subtract: bool,
) -> NodeCode:
    """opbridge_add_s8_table: inputs of the output's shape, both per-input stages as tables."""
    first_q, second_q, output_q = quantizations
    first_table = input_stage_table(first_q.zero_point, p.first_multiplier, p.first_shift)
    second_table = input_stage_table(second_q.zero_point, p.second_multiplier, p.second_shift, -1 if subtract else 1)
    first_definition, first_symbol = ctx.int32_array(node, "input1_table", first_table)
    second_definition, second_symbol = ctx.int32_array(node, "input2_table", second_table)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_add_s8_table_params",
        params_symbol,
        fields(
            count=ctx.graph.tensor(node.outputs[0]).element_count,
            input1_table=CExpression(first_symbol),
            input2_table=CExpression(second_symbol),
            output_multiplier=p.output_multiplier,
            output_shift=p.output_shift,
            output_offset=output_q.zero_point,
            activation_min=bounds[0],
            activation_max=bounds[1],
        ),
    )
    call = KernelCall(
        "opbridge_add_s8_table",
        params,
        (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0])),
    )
    return NodeCode(includes=[FOLDED_KERNELS_HEADER], definitions=[first_definition, second_definition], call=call)
