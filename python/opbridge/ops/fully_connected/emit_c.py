# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED -> opbridge_fully_connected_s8_folded (int8 with TFLite's requantization and
symmetric weights), else opbridge_fully_connected_s8 (int8), opbridge_fully_connected_s16[_bias32] (int16
activations, int8 weights, int64 or int32 bias), or opbridge_fully_connected_f32 (float32)."""

import numpy as np

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, StructValue, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.conv_2d.emit_c import fixed_point_requantization, float_requantization
from opbridge.ops.fully_connected.reference import fully_connected_multipliers, require_tflite_requantization
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.shared.float32 import float_activation_range, require_float32
from opbridge.ops.shared.folded import FOLDED_KERNELS_HEADER, absorbed_bias, fold_layer_bias, folded_requantization
from opbridge.ops.shared.quantized import (
    activation_range,
    int8_operands,
    onnx_output_scales,
    require_dtype,
    require_quantization,
)

S16_KERNELS_HEADER = "cc/kernels/opbridge_kernels_s16.h"


def emit_fully_connected_float32(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    output = graph.tensor(node.outputs[0])
    operands = [("input", input_tensor), ("filter", filter_tensor), ("output", output)]
    if bias_index is not None:
        operands.append(("bias", graph.tensor(bias_index)))
    require_float32(node, operands)
    units, depth = filter_tensor.shape
    batches = input_tensor.element_count // depth
    if batches * depth != input_tensor.element_count or output.element_count != batches * units:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} are not "
            f"rows of depth {depth} and of {units} units",
            hint="the model is inconsistent; re-export it",
        )
    low, high = float_activation_range(node.attributes.activation)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_fully_connected_f32_params",
        params_symbol,
        fields(
            activation_min=FloatValue(low),
            activation_max=FloatValue(high),
            batches=batches,
            input_depth=depth,
            output_depth=units,
        ),
    )
    arguments = (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.optional_pointer(bias_index))
    call = KernelCall("opbridge_fully_connected_f32", params, (*arguments, ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[F32_KERNELS_HEADER], call=call)


def emit_fully_connected_int16(ctx: EmitContext, node: Node) -> NodeCode:
    """16x8: int16 input and output, int8 filter, int64 (opbridge_fully_connected_s16) or int32
    (opbridge_fully_connected_s16_bias32) bias."""
    graph = ctx.graph
    require_tflite_requantization(node)
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    output = graph.tensor(node.outputs[0])
    for role, tensor, dtypes in (
        ("input", input_tensor, (DType.INT16,)),
        ("filter", filter_tensor, (DType.INT8,)),
        ("output", output, (DType.INT16,)),
    ):
        require_dtype(node, tensor, role, dtypes)
    input_q, filter_q, output_q = (
        require_quantization(node, tensor, role)
        for role, tensor in (("input", input_tensor), ("filter", filter_tensor), ("output", output))
    )
    kernel = "opbridge_fully_connected_s16"
    if bias_index is not None:
        bias = graph.tensor(bias_index)
        require_dtype(node, bias, "bias", (DType.INT64, DType.INT32))
        if bias.dtype is DType.INT32:
            kernel = "opbridge_fully_connected_s16_bias32"
    activation = activation_range(node.attributes.activation, output_q, DType.INT16)
    multipliers, shifts = fully_connected_multipliers(input_q, filter_q, output_q)
    requantization = fixed_point_requantization(ctx, node, multipliers, shifts)
    return fully_connected_params_and_call(
        ctx, node, kernel, S16_KERNELS_HEADER, (input_q, filter_q, output_q), activation, requantization
    )


def fully_connected_params_and_call(
    ctx: EmitContext,
    node: Node,
    kernel: str,
    header: str,
    quantizations: tuple[Quantization, Quantization, Quantization],
    activation: tuple[int, int],
    requantization: tuple[list[str], StructValue],
) -> NodeCode:
    """The opbridge_fully_connected_s8_params of `node` and the call kernel(&params, input, filter, bias, output):
    the int8 kernel and the int16 ones (16x8) take the same parameters; only the kernel and its header differ."""
    graph = ctx.graph
    input_q, filter_q, output_q = quantizations
    low, high = activation
    requantization_definitions, requantization_initializer = requantization
    units, depth = graph.tensor(node.inputs[1]).shape
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    filter_offset = 0 if filter_q.per_channel else -filter_q.zero_point
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_fully_connected_s8_params",
        params_symbol,
        fields(
            input_offset=-input_q.zero_point,
            filter_offset=filter_offset,
            output_offset=output_q.zero_point,
            activation_min=low,
            activation_max=high,
            batches=graph.tensor(node.inputs[0]).element_count // depth,
            input_depth=depth,
            output_depth=units,
            requantization=requantization_initializer,
        ),
    )
    arguments = (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.optional_pointer(bias_index))
    call = KernelCall(kernel, params, (*arguments, ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[header], definitions=requantization_definitions, call=call)


def emit_fully_connected(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    if graph.tensor(node.inputs[0]).dtype is DType.FLOAT32:
        return emit_fully_connected_float32(ctx, node)
    if graph.tensor(node.inputs[0]).dtype is DType.INT16:
        return emit_fully_connected_int16(ctx, node)
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    output = graph.tensor(node.outputs[0])
    input_q, filter_q, output_q = int8_operands(
        node, [("input", input_tensor), ("filter", filter_tensor), ("output", output)]
    )
    if bias_index is not None:
        require_dtype(node, graph.tensor(bias_index), "bias", (DType.INT32,))
    low, high = activation_range(node.attributes.activation, output_q)
    units, depth = filter_tensor.shape
    if node.attributes.requantization is Requantization.ONNX:
        scales = onnx_output_scales(input_q.scale, filter_q.scales, output_q.scale, units)
        requantization = float_requantization(ctx, node, scales)
    else:
        multipliers, shifts = fully_connected_multipliers(input_q, filter_q, output_q)
        bias = folded_fully_connected_bias(graph, node)
        if bias is not None:
            definitions, folded = folded_requantization(
                ctx, node, bias, multipliers, shifts, output_q.zero_point, low, high
            )
            params_symbol = ctx.local_symbol(node, "params")
            params = ParamStruct(
                "opbridge_fully_connected_s8_folded_params",
                params_symbol,
                fields(
                    batches=input_tensor.element_count // depth,
                    input_depth=depth,
                    output_depth=units,
                    requantization=folded,
                ),
            )
            # Rows shorter than a vector: their own entry point (each row one vector on Helium).
            kernel = "opbridge_fully_connected_s8_folded" + ("_short" if depth < 16 else "")
            pointers = (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0]))
            call = KernelCall(kernel, params, pointers)
            return NodeCode(includes=[FOLDED_KERNELS_HEADER], definitions=definitions, call=call)
        requantization = fixed_point_requantization(ctx, node, multipliers, shifts)
    return fully_connected_params_and_call(
        ctx,
        node,
        "opbridge_fully_connected_s8",
        KERNELS_HEADER,
        (input_q, filter_q, output_q),
        (low, high),
        requantization,
    )


# Layers with fewer multiply-accumulates keep the plain kernel: there the folded form's code would
# cost more flash than its speed is worth (hello_world's 16-unit layers).
FOLDED_MIN_MACS = 1024


def folded_fully_connected_bias(graph: Graph, node: Node) -> np.ndarray | None:
    """The folded bias if the node takes the folded form: int8 with TFLite's requantization,
    constant weights with zero points 0, a constant bias (or none), at least FOLDED_MIN_MACS; else None."""
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    filter_q = filter_tensor.quantization
    input_q = input_tensor.quantization
    if input_tensor.dtype is not DType.INT8 or node.attributes.requantization is not Requantization.TFLITE:
        return None
    if filter_tensor.data is None or filter_q is None or input_q is None:
        return None
    if any(zero != 0 for zero in filter_q.zero_points) or input_tensor.element_count * filter_tensor.shape[0] < (
        FOLDED_MIN_MACS
    ):
        return None
    return fold_layer_bias(graph, node, np.asarray(filter_tensor.data, dtype=np.int64).sum(axis=1))


def folded_bias_input(graph: Graph, node: Node) -> list[int]:
    """The bias, which the folded form replaces with the folded bias (OperatorDefinition.absorbed_constants)."""
    return absorbed_bias(node, folded_fully_connected_bias(graph, node) is not None)
