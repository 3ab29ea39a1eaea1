# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D -> opbridge_average_pool_2d_s8 or opbridge_average_pool_2d_f32."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode, tensor_dims
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, fields, int_array
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ir.attribute_types import window
from opbridge.ops.average_pool_2d.attributes import pool_axis_padding
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.shared.float32 import float_activation_range, require_float32
from opbridge.ops.shared.quantized import activation_range, require_dtype, require_quantization


def emit_average_pool_2d(ctx: EmitContext, node: Node) -> NodeCode:
    return emit_pool_2d(ctx, node, "opbridge_average_pool_2d")


def emit_pool_2d(ctx: EmitContext, node: Node, kernel: str) -> NodeCode:
    """A pooling node, `kernel` without its dtype suffix: int8 (TFLite requires equal input and output
    quantization) or float32."""
    graph = ctx.graph
    attributes = node.attributes
    input_tensor = graph.tensor(node.inputs[0])
    output = graph.tensor(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_float32_pool_2d(ctx, node, f"{kernel}_f32")
    kernel = f"{kernel}_s8"
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    if abs(input_q.scale - output_q.scale) > 1e-6 or input_q.zero_point != output_q.zero_point:
        raise UnsupportedTensorError(
            f"{node.describe()}: input and output quantization differ ({input_q} vs {output_q})",
            hint=f"TFLite's int8 {node.op_type} requires equal scales and zero points",
        )
    _, height, width, _ = input_tensor.shape
    rows = window(pool_axis_padding(attributes, 1), height, attributes.filter_height, attributes.stride_height)
    cols = window(pool_axis_padding(attributes, 2), width, attributes.filter_width, attributes.stride_width)
    low, high = activation_range(attributes.activation, output_q)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_pool_s8_params",
        params_symbol,
        fields(
            activation_min=low,
            activation_max=high,
            stride_height=attributes.stride_height,
            stride_width=attributes.stride_width,
            filter_height=attributes.filter_height,
            filter_width=attributes.filter_width,
            padding_height=rows.padding_before,
            padding_width=cols.padding_before,
            input=tensor_dims(input_tensor),
            output=tensor_dims(output),
        ),
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall(kernel, params, (source, target))
    return NodeCode(includes=[KERNELS_HEADER], call=call)


def emit_float32_pool_2d(ctx: EmitContext, node: Node, kernel: str) -> NodeCode:
    graph = ctx.graph
    attributes = node.attributes
    input_tensor = graph.tensor(node.inputs[0])
    output = graph.tensor(node.outputs[0])
    require_float32(node, [("input", input_tensor), ("output", output)])
    for role, tensor in (("input", input_tensor), ("output", output)):
        if len(tensor.shape) != 4:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} has rank {len(tensor.shape)}; pooling needs NHWC",
                hint="reshape to [batch, height, width, channels]",
            )
    _, height, width, _ = input_tensor.shape
    rows = window(pool_axis_padding(attributes, 1), height, attributes.filter_height, attributes.stride_height)
    cols = window(pool_axis_padding(attributes, 2), width, attributes.filter_width, attributes.stride_width)
    low, high = float_activation_range(attributes.activation)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_pool_f32_params",
        params_symbol,
        fields(
            activation_min=FloatValue(low),
            activation_max=FloatValue(high),
            stride_height=attributes.stride_height,
            stride_width=attributes.stride_width,
            filter_height=attributes.filter_height,
            filter_width=attributes.filter_width,
            padding_height=rows.padding_before,
            padding_width=cols.padding_before,
            input_shape=int_array(input_tensor.shape),
            output_shape=int_array(output.shape),
        ),
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall(kernel, params, (source, target))
    return NodeCode(includes=[F32_KERNELS_HEADER], call=call)
