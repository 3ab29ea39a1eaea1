# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV -> opbridge_transpose_conv_f32 (cc/kernels/opbridge_transpose_conv_f32.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode, tensor_dims
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, fields
from opbridge.ir import Graph, Node
from opbridge.ops.shared.float32 import float_activation_range, require_float32
from opbridge.ops.transpose_conv.reference import BIAS, FILTER, INPUT, OUTPUT_SHAPE, transpose_conv_padding

HEADER = "cc/kernels/opbridge_transpose_conv_f32.h"


def bias_input(node: Node) -> int | None:
    return node.inputs[BIAS] if len(node.inputs) > BIAS else None


def emit_transpose_conv(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    attributes = node.attributes
    input_tensor = graph.tensor(node.inputs[INPUT])
    filter_tensor = graph.tensor(node.inputs[FILTER])
    output = graph.tensor(node.outputs[0])
    bias_index = bias_input(node)
    operands = [("input", input_tensor), ("filter", filter_tensor), ("output", output)]
    if bias_index is not None:
        operands.append(("bias", graph.tensor(bias_index)))
    require_float32(node, operands)
    _, filter_height, filter_width, _ = filter_tensor.shape
    _, out_height, out_width, _ = output.shape
    pad_h, pad_w = transpose_conv_padding(
        attributes.padding,
        (out_height, out_width),
        (filter_height, filter_width),
        (attributes.stride_height, attributes.stride_width),
    )
    low, high = float_activation_range(attributes.activation)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_transpose_conv_f32_params",
        params_symbol,
        fields(
            activation_min=FloatValue(low),
            activation_max=FloatValue(high),
            stride_height=attributes.stride_height,
            stride_width=attributes.stride_width,
            padding_height=pad_h,
            padding_width=pad_w,
            input_shape=tensor_dims(input_tensor),
            filter_shape=tensor_dims(filter_tensor),
            output_shape=tensor_dims(output),
        ),
    )
    call = KernelCall(
        "opbridge_transpose_conv_f32",
        params,
        (
            ctx.pointer(node.inputs[INPUT]),
            ctx.pointer(node.inputs[FILTER]),
            ctx.optional_pointer(bias_index),
            ctx.pointer(node.outputs[0]),
        ),
    )
    return NodeCode(includes=[HEADER], call=call)


def output_shape_input(graph: Graph, node: Node) -> list[int]:
    """The output shape, a constant the parameters carry (OperatorDefinition.absorbed_constants): the
    kernel never reads it, so the module need not keep it."""
    index = node.inputs[OUTPUT_SHAPE]
    return [index] if index is not None and graph.tensor(index).is_constant else []
