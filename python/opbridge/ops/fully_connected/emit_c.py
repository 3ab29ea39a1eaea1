# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED -> opbridge_fully_connected_s8_folded (int8 with TFLite's requantization and
symmetric weights), else opbridge_fully_connected_s8 (int8), opbridge_fully_connected_s16[_bias32] (int16
activations, int8 weights, int64 or int32 bias), or opbridge_fully_connected_f32 (float32)."""

import numpy as np

from opbridge.backends.c.emit_context import (
    KERNELS_HEADER,
    EmitContext,
    NodeCode,
)
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, StructValue, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.conv_2d.emit_c import fixed_point_requantization, float_requantization
from opbridge.ops.fully_connected.reference import fully_connected_multipliers, require_tflite_requantization
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.shared.float32 import float_activation_range, require_float32
from opbridge.ops.shared.folded import (
    FOLDED_KERNELS_HEADER,
    absorbed_bias,
    filter_in_layout_definition,
    fold_layer_bias,
    folded_requantization,
    one_stage,
)
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
            filter_pointer = ctx.pointer(node.inputs[1])
            adjusted = dsp_layout_filter(graph, node)
            kernel = folded_kernel(depth, adjusted is not None, one_stage(multipliers, shifts))
            if adjusted is not None:
                filter_definition, filter_pointer = dsp_layout_filter_definition(ctx, node, adjusted)
                # The folded bias is definitions[0] (folded_requantization); the layout's differs.
                layout_bias, _ = ctx.int32_array(node, "folded_bias", dsp_layout_bias(graph, node, bias))
                definitions = [
                    filter_definition,
                    f"#if OPBRIDGE_DSP_WEIGHT_LAYOUT\n{layout_bias}\n#else\n{definitions[0]}\n#endif",
                    *definitions[1:],
                ]
            pointers = (ctx.pointer(node.inputs[0]), filter_pointer, ctx.pointer(node.outputs[0]))
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


def folded_kernel(depth: int, dsp_layout: bool, shared_stage: bool) -> str:
    """The folded entry point of a layer of `depth`-byte rows: the DSP layout's where the emitter writes
    the filter in it (dsp_layout_filter), rows shorter than a vector their own (each row one vector on
    Helium), else the plain one; the DSP layout's and the plain one in their "_per_tensor" form when
    the units share one multiplier and shift (`shared_stage`: the form without the per-channel path,
    its code and stack, which such a layer never takes)."""
    per_tensor = "_per_tensor" if shared_stage else ""
    if dsp_layout:
        return "opbridge_fully_connected_s8_folded_dsp_layout" + per_tensor
    if depth < 16:
        return "opbridge_fully_connected_s8_folded_short"
    return "opbridge_fully_connected_s8_folded" + per_tensor


def kernel_path(graph: Graph, node: Node) -> str:
    """FULLY_CONNECTED's cost class (OperatorDefinition.cost_class): the folded int8 entry point the node
    calls without its "opbridge_fully_connected_s8_folded" stem ("folded", "short", "dsp_layout"), then
    "+per_channel" when its units' multipliers or shifts differ (the Helium rows lay their stage out
    per group then); "other" when it does not take a folded form (float32, int16, ONNX's float scales)."""
    if folded_fully_connected_bias(graph, node) is None:
        return "other"
    depth = graph.tensor(node.inputs[1]).shape[1]
    input_q, filter_q, output_q = (
        graph.tensor(i).quantization for i in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    shared = one_stage(*fully_connected_multipliers(input_q, filter_q, output_q))
    kernel = folded_kernel(depth, dsp_layout_filter(graph, node) is not None, shared)
    # The "_per_tensor" form is its plain form's code less a path it never takes: the same cost.
    stem = kernel.removeprefix("opbridge_fully_connected_s8_folded").removesuffix("_per_tensor")
    path = stem.removeprefix("_") or "folded"
    return path if shared else f"{path}+per_channel"


def folded_bias_input(graph: Graph, node: Node) -> list[int]:
    """The bias, which the folded form replaces with the folded bias, and the filter when the node
    writes its own copy of it in the DSP layout (OperatorDefinition.absorbed_constants)."""
    absorbed = absorbed_bias(node, folded_fully_connected_bias(graph, node) is not None)
    if dsp_layout_filter(graph, node) is not None:
        absorbed.append(node.inputs[1])
    return absorbed


# opbridge_fully_connected_s8_folded_dsp_layout's limits (cc/kernels/opbridge_kernels_folded_s8.h):
# rows of a multiple of 8 bytes from 16 to OPBRIDGE_DSP_LAYOUT_MAX_DEPTH, pairs of units.
DSP_LAYOUT_MAX_DEPTH = 1024


def dsp_layout_bias(graph: Graph, node: Node, bias: np.ndarray) -> np.ndarray:
    """The folded bias the DSP layout's kernel adds: its dot products see each odd input less 127
    (which keeps their 16-bit operands in range), so each unit's bias gains 127 x its odd weights."""
    weights = np.asarray(graph.tensor(node.inputs[1]).data, dtype=np.int64)
    return np.asarray(bias, dtype=np.int64) + 127 * weights[:, 1::2].sum(axis=1)


def dsp_layout_filter(graph: Graph, node: Node) -> np.ndarray | None:
    """The filter in the DSP variant's layout if the node takes opbridge_fully_connected_s8_folded_dsp_layout,
    else None. In that layout the second and fourth byte of every 4 are lowered by 1 where the byte
    before them is negative, so that each 16-bit half of a loaded word is 256 x w[2k+1] + w[2k]
    (docs/kernels.md, "The DSP variant"). The node must be the filter's only reader (it writes its
    own copy); each layout byte must fit int8 (a -128 after a negative byte does not); each unit's
    products, with the odd inputs less 127 (up to 255 in magnitude), must sum below 2^23 in
    magnitude so that 256 times the sum fits int32; its biases, right shifts (1 to 31) and depth
    must give accumulators below 2^30 (the assembly's output stage, checked as the kernel does)."""
    bias = folded_fully_connected_bias(graph, node)
    filter_index = node.inputs[1]
    if bias is None or filter_index in graph.outputs:
        return None
    readers = sum(1 for other in graph.nodes if filter_index in other.inputs)
    weights = np.asarray(graph.tensor(filter_index).data, dtype=np.int64)
    units, depth = weights.shape
    if readers != 1 or depth % 8 or not 16 <= depth <= DSP_LAYOUT_MAX_DEPTH or units % 2:
        return None
    products = 128 * np.abs(weights[:, 0::2]).sum(axis=1) + 255 * np.abs(weights[:, 1::2]).sum(axis=1)
    biases = max(int(np.abs(bias).max()), int(np.abs(dsp_layout_bias(graph, node, bias)).max()))
    if biases + (2 * depth << 14) >= 2**30 or (products >= 2**23).any():
        return None
    input_q, filter_q, output_q = (
        graph.tensor(index).quantization for index in (node.inputs[0], filter_index, node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    _, shifts = fully_connected_multipliers(input_q, filter_q, output_q)
    if not ((np.asarray(shifts) <= -1) & (np.asarray(shifts) >= -31)).all():
        return None
    adjusted = weights.copy()
    adjusted[:, 1::2] -= weights[:, 0::2] < 0
    if adjusted.min() < -128:
        return None
    return adjusted.astype(np.int8)


def int32_literals(values: np.ndarray) -> str:
    """C99 int32 literals (-2^31 as an expression: 2147483648 alone is not an int)."""
    return ", ".join("(-2147483647 - 1)" if int(v) == -(2**31) else str(int(v)) for v in values)


def dsp_layout_filter_definition(ctx: EmitContext, node: Node, adjusted: np.ndarray) -> tuple[str, str]:
    """The node's copy of its filter, in the DSP layout where the build reads it
    (OPBRIDGE_DSP_WEIGHT_LAYOUT), and the pointer to it."""
    # Words (little-endian, as the layout's cores are): the assembly loads them two at a time (LDRD),
    # which needs word alignment.
    words = np.ascontiguousarray(adjusted.ravel().astype(np.int8)).view("<i4")
    comment = "each odd byte less 1 where the byte before it is negative"
    definition = filter_in_layout_definition(
        ctx, node, "OPBRIDGE_DSP_WEIGHT_LAYOUT", comment, "int32_t", int32_literals(words), words.size
    )
    return definition, f"(const int8_t *){ctx.local_symbol(node, 'filter')}"
