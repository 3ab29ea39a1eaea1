# SPDX-License-Identifier: Apache-2.0
"""CONV_2D and DEPTHWISE_CONV_2D -> the folded forms opbridge_conv_2d_s8_folded /
opbridge_depthwise_conv_2d_s8_folded (int8 with TFLite's requantization and symmetric filters),
else opbridge_conv_2d_s8 / opbridge_depthwise_conv_2d_s8 (int8), and opbridge_conv_f32 /
opbridge_depthwise_conv_f32 (float32). docs/kernels.md says which form when."""

from typing import Any

import numpy as np

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode, c_int_list, tensor_dims
from opbridge.backends.c.kernel_call import (
    CExpression,
    Field,
    FloatValue,
    KernelCall,
    ParamStruct,
    StructValue,
    fields,
)
from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import Requantization, Window, axis_padding, spatial_windows, window
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.shared.float32 import float_activation_range, require_float32
from opbridge.ops.shared.folded import (
    FOLDED_KERNELS_HEADER,
    absorbed_bias,
    filter_in_layout_definition,
    fold_layer_bias,
    folded_requantization,
)
from opbridge.ops.shared.quantized import (
    activation_range,
    int8_operands,
    onnx_output_scales,
    per_channel_multipliers,
    require_dtype,
)


def emit_convolution_float32(ctx: EmitContext, node: Node, depthwise: bool) -> NodeCode:
    graph = ctx.graph
    attributes = node.attributes
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    output = graph.tensor(node.outputs[0])
    operands = [("input", input_tensor), ("filter", filter_tensor), ("output", output)]
    if bias_index is not None:
        operands.append(("bias", graph.tensor(bias_index)))
    require_float32(node, operands)
    _, height, width, in_channels = input_tensor.shape
    _, filter_height, filter_width, filter_channels = filter_tensor.shape
    out_channels = output.shape[3]
    if not depthwise and filter_channels != in_channels:
        raise UnsupportedOperatorError(
            f"{node.describe()}: grouped convolution ({in_channels} input channels, filter depth {filter_channels})",
            hint="grouped CONV_2D is not supported yet",
        )
    low, high = float_activation_range(attributes.activation)
    rows, cols = spatial_windows(attributes, height, width, filter_height, filter_width)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_conv_f32_params",
        params_symbol,
        (
            *fields(activation_min=FloatValue(low), activation_max=FloatValue(high)),
            *window_fields(attributes, rows, cols),
            *fields(
                depth_multiplier=out_channels // in_channels if depthwise else 1,
                input_shape=tensor_dims(input_tensor),
                filter_shape=tensor_dims(filter_tensor),
                output_shape=tensor_dims(output),
            ),
        ),
    )
    kernel = "opbridge_depthwise_conv_f32" if depthwise else "opbridge_conv_f32"
    arguments = (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.optional_pointer(bias_index))
    call = KernelCall(kernel, params, (*arguments, ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[F32_KERNELS_HEADER], call=call)


def emit_convolution(ctx: EmitContext, node: Node, depthwise: bool) -> NodeCode:
    graph = ctx.graph
    if graph.tensor(node.inputs[0]).dtype is DType.FLOAT32:
        return emit_convolution_float32(ctx, node, depthwise)
    attributes = node.attributes
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    output = graph.tensor(node.outputs[0])
    input_q, filter_q, output_q = int8_operands(
        node, [("input", input_tensor), ("filter", filter_tensor), ("output", output)]
    )
    if bias_index is not None:
        require_dtype(node, graph.tensor(bias_index), "bias", (DType.INT32,))
    _, height, width, in_channels = input_tensor.shape
    _, filter_height, filter_width, filter_channels = filter_tensor.shape
    out_channels = output.shape[3]
    if not depthwise and filter_channels != in_channels:
        raise UnsupportedOperatorError(
            f"{node.describe()}: grouped convolution ({in_channels} input channels, filter depth {filter_channels})",
            hint="grouped CONV_2D is not supported yet",
        )
    low, high = activation_range(attributes.activation, output_q)
    rows, cols = spatial_windows(attributes, height, width, filter_height, filter_width)
    if attributes.requantization is Requantization.ONNX:
        scales = onnx_output_scales(input_q.scale, filter_q.scales, output_q.scale, out_channels)
        requantization_definitions, requantization = float_requantization(ctx, node, scales)
    else:
        multipliers, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, out_channels)
        bias = folded_convolution_bias(graph, node, depthwise)
        if bias is not None:
            definitions, folded = folded_requantization(
                ctx, node, bias, multipliers, shifts, output_q.zero_point, low, high
            )
            return emit_folded_convolution(ctx, node, definitions, folded, window_fields(attributes, rows, cols))
        requantization_definitions, requantization = fixed_point_requantization(ctx, node, multipliers, shifts)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_conv_s8_params",
        params_symbol,
        (
            *fields(
                input_offset=-input_q.zero_point,
                output_offset=output_q.zero_point,
                activation_min=low,
                activation_max=high,
            ),
            *window_fields(attributes, rows, cols),
            *fields(
                depth_multiplier=out_channels // in_channels if depthwise else 1,
                input=tensor_dims(input_tensor),
                filter=tensor_dims(filter_tensor),
                output=tensor_dims(output),
                requantization=requantization,
            ),
        ),
    )
    kernel = "opbridge_depthwise_conv_2d_s8" if depthwise else "opbridge_conv_2d_s8"
    arguments = (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.optional_pointer(bias_index))
    call = KernelCall(kernel, params, (*arguments, ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[KERNELS_HEADER], definitions=requantization_definitions, call=call)


def window_fields(attributes: Any, rows: Window, cols: Window) -> tuple[Field, ...]:
    """The stride, dilation and padding members of the convolution parameter structs."""
    return fields(
        stride_height=attributes.stride_height,
        stride_width=attributes.stride_width,
        dilation_height=attributes.dilation_height,
        dilation_width=attributes.dilation_width,
        padding_height=rows.padding_before,
        padding_width=cols.padding_before,
    )


def emit_folded_convolution(
    ctx: EmitContext, node: Node, definitions: list[str], requantization: StructValue, window: tuple[Field, ...]
) -> NodeCode:
    """The call of the node's folded entry point (folded_kernel), with its parameters."""
    graph = ctx.graph
    input_tensor = graph.tensor(node.inputs[0])
    input_q = input_tensor.quantization
    assert input_q is not None  # int8 operands are quantized (int8_operands)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_conv_s8_folded_params",
        params_symbol,
        (
            *fields(input_offset=-input_q.zero_point),
            *window,
            *fields(
                input=tensor_dims(input_tensor),
                filter=tensor_dims(graph.tensor(node.inputs[1])),
                output=tensor_dims(graph.tensor(node.outputs[0])),
                requantization=requantization,
            ),
        ),
    )
    arguments = [ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1])]
    kernel = folded_kernel(graph, node)
    if kernel == "opbridge_conv_2d_s8_folded_pairs":
        filter_definition, arguments[1] = pairs_filter_definition(ctx, node)
        definitions = [filter_definition, *definitions]
    if kernel in (
        "opbridge_conv_2d_s8_folded_patch",
        "opbridge_conv_2d_s8_folded_patch_rows",
        "opbridge_conv_2d_s8_folded_planes",
    ):
        arguments.append(ctx.scratch_pointer(node, "int8_t"))
    if kernel == "opbridge_conv_2d_s8_folded_pointwise_by_channel":  # the patch form's scratch, on other cores
        arguments.append(ctx.scratch_pointer(node, "int8_t") if conv_2d_scratch_bytes(graph, node) else "NULL")
    call = KernelCall(kernel, params, (*arguments, ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[FOLDED_KERNELS_HEADER], definitions=definitions, call=call)


def folded_convolution_bias(graph: Graph, node: Node, depthwise: bool) -> np.ndarray | None:
    """The folded bias if `node` (int8, TFLite requantization) takes the folded form, else None:
    CONV_2D that is not grouped, DEPTHWISE_CONV_2D, symmetric filters."""
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    filter_q = filter_tensor.quantization
    if input_tensor.dtype is not DType.INT8 or node.attributes.requantization is not Requantization.TFLITE:
        return None
    if filter_tensor.data is None or filter_q is None or any(zero != 0 for zero in filter_q.zero_points):
        return None
    in_channels = input_tensor.shape[3]
    weights = np.asarray(filter_tensor.data, dtype=np.int64)
    if depthwise:
        if weights.shape[3] % in_channels:
            return None
        sums = weights.sum(axis=(0, 1, 2))
    else:
        if weights.shape[3] != in_channels:  # grouped
            return None
        sums = weights.reshape(weights.shape[0], -1).sum(axis=1)
    return fold_layer_bias(graph, node, sums)


# OPBRIDGE_CONV_BLOCKS_MAX_WINDOW in cc/kernels/opbridge_kernels_folded_s8.h: the largest window of
# opbridge_conv_2d_s8_folded_blocks (its variants may copy a window onto the stack).
CONV_BLOCKS_MAX_WINDOW = 576


def folded_kernel(graph: Graph, node: Node) -> str:
    """Which folded entry point a node calls, by its shape: each is its own function, so a module
    links only the paths its layers take (docs/kernels.md)."""
    if node.op_type == "DEPTHWISE_CONV_2D":
        multiplied = graph.tensor(node.outputs[0]).shape[3] != graph.tensor(node.inputs[0]).shape[3]
        if multiplied:
            return "opbridge_depthwise_conv_2d_s8_folded_multiplier"
        if _depthwise_8_channels_fits(graph, node):
            return "opbridge_depthwise_conv_2d_s8_folded_8_channels"
        if _depthwise_planar_fits(graph, node) and _depthwise_planar_pays(graph, node):
            return "opbridge_depthwise_conv_2d_s8_folded_planar"
        # Channels in whole blocks of 16: the plain form without the partial block's path (its code
        # and stack, which such a layer never takes).
        if graph.tensor(node.inputs[0]).shape[3] % 16 == 0:
            return "opbridge_depthwise_conv_2d_s8_folded_whole16"
        return "opbridge_depthwise_conv_2d_s8_folded"
    if _pointwise_by_channel_pays(graph, node):
        return "opbridge_conv_2d_s8_folded_pointwise_by_channel"
    if conv_2d_scratch_bytes(graph, node):
        if _conv_planes_fits(graph, node) and _conv_planes_pays(graph, node):
            return "opbridge_conv_2d_s8_folded_planes"
        if _patch_rows_fits(graph, node):
            return "opbridge_conv_2d_s8_folded_patch_rows"
        return "opbridge_conv_2d_s8_folded_patch"
    _, filter_height, filter_width, channels = graph.tensor(node.inputs[1]).shape
    attributes = node.attributes
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    rows = window(axis_padding(attributes, 1), input_tensor.shape[1], 1, attributes.stride_height, 1)
    cols = window(axis_padding(attributes, 2), input_tensor.shape[2], 1, attributes.stride_width, 1)
    unpadded = rows.padding_before == 0 and cols.padding_before == 0
    if filter_height == filter_width == 1 and channels % 16 == 0 and unpadded and output.shape[3] > 0:
        if channels <= 64 and output.shape[3] % 4 == 0 and not _shifts_left(graph, node):
            return "opbridge_conv_2d_s8_folded_pointwise_narrow"
        # Deeper ones: two positions per weight load, where the input vector no longer stays in registers.
        if channels > 64 and _pairs_fits(graph, node):
            return "opbridge_conv_2d_s8_folded_pairs"
        return "opbridge_conv_2d_s8_folded_pointwise"
    if _pairs_fits(graph, node):
        return "opbridge_conv_2d_s8_folded_pairs"
    window_bytes = filter_height * filter_width * channels
    if attributes.dilation_width == 1 and filter_width * channels % 16 == 0 and window_bytes <= CONV_BLOCKS_MAX_WINDOW:
        return "opbridge_conv_2d_s8_folded_blocks"
    return "opbridge_conv_2d_s8_folded"


def kernel_path(graph: Graph, node: Node) -> str:
    """CONV_2D's and DEPTHWISE_CONV_2D's cost class (OperatorDefinition.cost_class): the folded int8
    entry point the node calls, without its "opbridge_<op>_s8_folded" stem ("folded" for the plain
    folded form, "patch", "pointwise_narrow", ...), a depthwise one "+partial" when its channels end in a
    partial block of 16; "other" when it does not take a folded form (float32, ONNX's float scales)."""
    depthwise = node.op_type == "DEPTHWISE_CONV_2D"
    if folded_convolution_bias(graph, node, depthwise=depthwise) is None:
        return "other"
    stem = "opbridge_depthwise_conv_2d_s8_folded" if depthwise else "opbridge_conv_2d_s8_folded"
    # The whole-block entry point is the plain form's code less a path it never takes: the same cost.
    path = folded_kernel(graph, node).removeprefix(stem).removeprefix("_").removesuffix("whole16") or "folded"
    if depthwise and graph.tensor(node.outputs[0]).shape[3] % 16 and path != "8_channels":
        path += "+partial"
    return path


# OPBRIDGE_DEPTHWISE_8_CHANNELS_MAX_TAPS and OPBRIDGE_DEPTHWISE_8_CHANNELS_LINES in
# cc/kernels/opbridge_kernels_folded_s8.h.
DEPTHWISE_8_CHANNELS_MAX_TAPS = 49
DEPTHWISE_8_CHANNELS_LINES = 1024


def _depthwise_8_channels_fits(graph: Graph, node: Node) -> bool:
    """Whether a depthwise layer (multiplier 1) takes opbridge_depthwise_conv_2d_s8_folded_8_channels:
    8 channels, stride 1 along x, at most DEPTHWISE_8_CHANNELS_MAX_TAPS taps, lines of two positions
    and a spare column within DEPTHWISE_8_CHANNELS_LINES bytes (any width: a patch stage's tiles)."""
    _, filter_height, filter_width, channels = graph.tensor(node.inputs[1]).shape
    attributes = node.attributes
    x_span = (filter_width - 1) * attributes.dilation_width
    return (
        channels == 8
        and attributes.stride_width == 1
        and filter_height * filter_width <= DEPTHWISE_8_CHANNELS_MAX_TAPS
        and filter_height * (x_span + 4) * 8 <= DEPTHWISE_8_CHANNELS_LINES
    )


def _plane_fits(graph: Graph, node: Node, column_bytes: int, vector_bytes: int, plane_bytes: int) -> bool:
    """Whether a planes path's plane fits `plane_bytes` (opbridge_plane_fits in
    cc/kernels/opbridge_folded_internal.h): the columns its windows read, `column_bytes` each, and the
    windows of the last group of four positions, read whole (`vector_bytes` from each start)."""
    width = graph.tensor(node.inputs[0]).shape[2]
    filter_width = graph.tensor(node.inputs[1]).shape[2]
    out_width = graph.tensor(node.outputs[0]).shape[2]
    a = node.attributes
    padding_width = window(axis_padding(a, 2), width, filter_width, a.stride_width, 1).padding_before
    reach = (out_width - 1) * a.stride_width + filter_width
    inside = max(0, min(width, reach - padding_width))
    columns = max(reach, padding_width + inside)
    last_window = ((out_width + 3) // 4 * 4 - 1) * a.stride_width * column_bytes
    return columns * column_bytes <= plane_bytes and last_window + vector_bytes <= plane_bytes


# OPBRIDGE_CONV_PLANE_BYTES, OPBRIDGE_CONV_PLANE_MAX_WINDOW and OPBRIDGE_CONV_PLANE_WEIGHT_BYTES in
# cc/kernels/opbridge_kernels_folded_s8.h.
CONV_PLANE_BYTES = 2048
CONV_PLANE_MAX_WINDOW = 64
CONV_PLANE_WEIGHT_BYTES = 512


def _conv_planes_pays(graph: Graph, node: Node) -> bool:
    """Whether the planes path is the faster on Helium: windows of one 16-byte vector (a 3x3 window
    over one channel: grey first layers) over output rows of 16 positions or more. Each output
    channel of a row costs about 60 instructions more (its call), and copying the rows into the
    plane about one per input byte; a window of two vectors (3x3 over 3 channels) costs about 10
    an output there, where opbridge_conv_2d_s8_folded_patch_rows spends 12 (docs/kernels.md)."""
    _, filter_height, filter_width, channels = graph.tensor(node.inputs[1]).shape
    return filter_height * filter_width * channels <= 16 and graph.tensor(node.outputs[0]).shape[2] >= 16


def _conv_planes_fits(graph: Graph, node: Node) -> bool:
    """Whether a patch layer (window rows under 16 bytes) can take opbridge_conv_2d_s8_folded_planes
    (opbridge_conv_planes_call_valid in cc/kernels/opbridge_folded_internal.h): not dilated, a window
    of at most CONV_PLANE_MAX_WINDOW bytes, the weights and an output row's plane within their
    buffers."""
    channels = graph.tensor(node.inputs[0]).shape[3]
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_channels = graph.tensor(node.outputs[0]).shape[3]
    a = node.attributes
    column_bytes = filter_height * channels
    window_bytes = column_bytes * filter_width
    vector_bytes = (window_bytes + 15) // 16 * 16
    if (
        a.dilation_height != 1
        or a.dilation_width != 1
        or window_bytes > CONV_PLANE_MAX_WINDOW
        or out_channels * (window_bytes + 1) > CONV_PLANE_WEIGHT_BYTES
    ):
        return False
    return _plane_fits(graph, node, column_bytes, vector_bytes, CONV_PLANE_BYTES)


# OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH in cc/kernels/opbridge_kernels_folded_s8.h, and the deepest
# input that takes the path by choice: beyond 48 channels holding the input of a position in registers
# (opbridge_conv_2d_s8_folded_pointwise_narrow) costs about as much (docs/kernels.md).
POINTWISE_BY_CHANNEL_MAX_DEPTH = 64
POINTWISE_BY_CHANNEL_CHOSEN_DEPTH = 48
POINTWISE_BY_CHANNEL_MIN_POSITIONS = 64


def _pointwise_by_channel_pays(graph: Graph, node: Node) -> bool:
    """Whether a 1x1 CONV_2D takes opbridge_conv_2d_s8_folded_pointwise_by_channel
    (opbridge_conv_pointwise_by_channel_call_valid): stride 1, unpadded, at most
    POINTWISE_BY_CHANNEL_CHOSEN_DEPTH input channels. On Helium each output costs one to three
    16-byte loads and VMLADAVA, a lane move and a quarter of a four-lane output stage: 6 to 10
    instructions, where the paths that take a position at a time spend 8 to 19 on the narrow
    layers of MobileNet v2 and MCUNet-like blocks; each output channel costs about 120 more (its
    weights, two calls), which images of fewer than POINTWISE_BY_CHANNEL_MIN_POSITIONS positions
    (6x6, 3x3) do not win back."""
    _, filter_height, filter_width, channels = graph.tensor(node.inputs[1]).shape
    input_shape, output_shape = graph.tensor(node.inputs[0]).shape, graph.tensor(node.outputs[0]).shape
    a = node.attributes
    return (
        filter_height == filter_width == 1
        and a.stride_height == a.stride_width == 1
        and tuple(input_shape[1:3]) == tuple(output_shape[1:3])
        and channels <= POINTWISE_BY_CHANNEL_CHOSEN_DEPTH
        and input_shape[0] * input_shape[1] * input_shape[2] >= POINTWISE_BY_CHANNEL_MIN_POSITIONS
    )


# OPBRIDGE_DEPTHWISE_PLANE_BYTES, OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS and
# OPBRIDGE_DEPTHWISE_PLANE_WEIGHT_BYTES in cc/kernels/opbridge_kernels_folded_s8.h.
DEPTHWISE_PLANE_BYTES = 1024
DEPTHWISE_PLANE_MAX_TAPS = 64
DEPTHWISE_PLANE_WEIGHT_BYTES = 512
# The window steps (vectors a window, bytes between windows) the planes' assembly takes as constants
# (opbridge_plane_channel_of in cc/kernels/opbridge_folded_planes_helium.c): square 3x3, 5x5 and 7x7
# depthwise windows at strides 1 and 2, and 1x1 layers over 16, 24, 32 and 48 channels.
PLANE_CONSTANT_STEPS = frozenset({(1, 3), (1, 6), (2, 5), (2, 10), (4, 7), (4, 14), (1, 16), (2, 24), (2, 32), (3, 48)})


def _depthwise_planar_fits(graph: Graph, node: Node) -> bool:
    """Whether a depthwise layer (multiplier 1) can take opbridge_depthwise_conv_2d_s8_folded_planar
    (opbridge_depthwise_planar_call_valid in cc/kernels/opbridge_folded_internal.h): not dilated, at
    most DEPTHWISE_PLANE_MAX_TAPS taps, its weights in every slot rotation and one channel's plane
    within their buffers."""
    channels = graph.tensor(node.inputs[0]).shape[3]
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    a = node.attributes
    taps = filter_height * filter_width
    vector_bytes = (taps + 15) // 16 * 16
    if (
        a.dilation_height != 1
        or a.dilation_width != 1
        or taps > DEPTHWISE_PLANE_MAX_TAPS
        or filter_height * vector_bytes > DEPTHWISE_PLANE_WEIGHT_BYTES
        or taps * channels > 65535
        or channels > 8191
    ):
        return False
    return _plane_fits(graph, node, filter_height, vector_bytes, DEPTHWISE_PLANE_BYTES)


def _depthwise_planar_pays(graph: Graph, node: Node) -> bool:
    """Whether the planar path is the faster on Helium, by a model of both paths' instructions per
    channel (its constants measured on the suite's MobileNet v2, MCUNet-like and Conv1D layers,
    docs/kernels.md). Planar: about 120 per channel, 35 per output row and 13 per input row copied
    plus 5 per 8 of its columns, and per output (4 (2 V + 2) + 15) / 4 for windows of V vectors (one
    fewer a position at the assembly's constant steps). Lines of 16 channels: about 1.2 per tap
    and 1.5 per output (7.5 at the least), the channels padded to whole blocks."""
    _, _, width, channels = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    _, out_height, out_width, _ = graph.tensor(node.outputs[0]).shape
    a = node.attributes
    taps = filter_height * filter_width
    vectors = (taps + 15) // 16
    step = a.stride_width * filter_height
    constant = (vectors, step) in PLANE_CONSTANT_STEPS
    per_output = (4 * (2 * vectors + 2 - constant) + 15) / 4
    rows_copied = min(a.stride_height, filter_height)
    columns = min(width, (out_width - 1) * a.stride_width + filter_width)
    per_row = 35 + rows_copied * (13 + 5 * -(-columns // 8))
    planar = 120 + out_height * per_row + out_height * out_width * per_output
    lines = out_height * out_width * max(7.5, 1.2 * taps + 1.5) * (-(-channels // 16) * 16) / channels
    return planar < lines


# OPBRIDGE_PATCH_ROWS_MAX_WINDOW and OPBRIDGE_PATCH_ROWS_ROWS_BYTES in
# cc/kernels/opbridge_kernels_folded_s8.h: opbridge_conv_2d_s8_folded_patch_rows's largest window, and
# the most bytes its weight rows take padded to 16 or 32 bytes.
PATCH_ROWS_MAX_WINDOW = 32
PATCH_ROWS_ROWS_BYTES = 1024


def _patch_rows_fits(graph: Graph, node: Node) -> bool:
    """Whether a patch layer takes opbridge_conv_2d_s8_folded_patch_rows: a filter larger than 1x1
    (the patch form reads those in place) not dilated along x, a window of at most
    PATCH_ROWS_MAX_WINDOW bytes, output channels a multiple of 4 whose padded weight rows fit
    PATCH_ROWS_ROWS_BYTES, no left shift."""
    _, filter_height, filter_width, channels = graph.tensor(node.inputs[1]).shape
    out_channels = graph.tensor(node.outputs[0]).shape[3]
    window_bytes = filter_height * filter_width * channels
    padded = 16 if window_bytes <= 16 else 32
    return (
        filter_height * filter_width > 1
        and node.attributes.dilation_width == 1
        and window_bytes <= PATCH_ROWS_MAX_WINDOW
        and out_channels % 4 == 0
        and out_channels * padded <= PATCH_ROWS_ROWS_BYTES
        and not _shifts_left(graph, node)
    )


# OPBRIDGE_CONV_PAIRS_BAND_BYTES in cc/kernels/opbridge_kernels_folded_s8.h: the band of input rows
# opbridge_conv_2d_s8_folded_pairs copies onto the stack.
CONV_PAIRS_BAND_BYTES = 2048


def _pairs_fits(graph: Graph, node: Node) -> bool:
    """Whether an in-place CONV_2D takes opbridge_conv_2d_s8_folded_pairs: output channels a
    multiple of 4, the node the filter's only reader (it writes its own copy in the pairs layout),
    and either window rows of whole 16-byte blocks, not dilated along x, the window rows of two
    neighbouring positions within CONV_PAIRS_BAND_BYTES, at least two output columns (one column
    would run each window as a pair of itself); or windows of one row of more than 16 bytes that
    are not whole blocks (below)."""
    _, filter_height, filter_width, channels = graph.tensor(node.inputs[1]).shape
    attributes = node.attributes
    output = graph.tensor(node.outputs[0])
    filter_index = node.inputs[1]
    readers = sum(1 for other in graph.nodes if filter_index in other.inputs)
    if output.shape[3] % 4 or readers != 1 or filter_index in graph.outputs or graph.tensor(filter_index).data is None:
        return False
    window_bytes = filter_width * channels
    if window_bytes % 16:
        # Windows of one row that are not whole blocks (a 1x1 over 24 channels, Conv1D's 1x5 over
        # 40): each padded to whole blocks, in runs across output rows (so the positions, not the
        # columns, must be two or more); one row, so no rows of padding.
        positions = output.shape[0] * output.shape[1] * output.shape[2]
        height = graph.tensor(node.inputs[0]).shape[1]
        rows = window(axis_padding(attributes, 1), height, 1, attributes.stride_height, attributes.dilation_height)
        one_row = filter_height == 1 and (filter_width == 1 or attributes.dilation_width == 1)
        return (
            rows.padding_before == 0
            and one_row
            and window_bytes > 16
            and 2 * padded_depth(window_bytes) <= CONV_PAIRS_BAND_BYTES
            and positions >= 2
        )
    return (
        attributes.dilation_width == 1
        and output.shape[2] >= 2
        and filter_height * (attributes.stride_width + filter_width) * channels <= CONV_PAIRS_BAND_BYTES
    )


def padded_depth(size: int) -> int:
    """Bytes rounded up to whole 16-byte blocks."""
    return -(-size // 16) * 16


def pairs_layout(weights: np.ndarray) -> np.ndarray:
    """A filter [units, height, width, channels] in opbridge_conv_2d_s8_folded_pairs's Helium layout:
    for each group of four units, their weight rows interleaved 16 bytes at a time; windows of one
    row that are not whole blocks padded with zero weights to whole blocks first."""
    units, _, width, channels = weights.shape
    if width * channels % 16:  # windows of one row: each unit's row padded
        rows = weights.reshape(units, -1)
        weights = np.pad(rows, ((0, 0), (0, padded_depth(rows.shape[1]) - rows.shape[1])))
    blocks = weights.reshape(units // 4, 4, -1, 16)  # group, unit, block, byte
    return np.ascontiguousarray(blocks.transpose(0, 2, 1, 3)).ravel()


def pairs_filter_definition(ctx: EmitContext, node: Node) -> tuple[str, str]:
    """The node's copy of its filter, in the pairs layout where the build reads it
    (OPBRIDGE_HELIUM_WEIGHT_LAYOUT), and its symbol."""
    layout = pairs_layout(np.asarray(ctx.graph.tensor(node.inputs[1]).data, dtype=np.int64))
    comment = "each group of four weight rows interleaved 16 bytes at a time"
    definition = filter_in_layout_definition(
        ctx, node, "OPBRIDGE_HELIUM_WEIGHT_LAYOUT", comment, "int8_t", c_int_list(layout), layout.size
    )
    return definition, ctx.local_symbol(node, "filter")


def _shifts_left(graph: Graph, node: Node) -> bool:
    """Whether any output channel's requantization shifts left (a positive shift)."""
    input_q, filter_q, output_q = (
        graph.tensor(i).quantization for i in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    channels = graph.tensor(node.outputs[0]).shape[3]
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
    return bool((np.asarray(shifts) > 0).any())


def conv_2d_scratch_bytes(graph: Graph, node: Node) -> int:
    """Bytes of arena scratch CONV_2D's folded form reads windows through: one window when a
    contiguous row of it is shorter than a 16-byte vector (first layers with 1-3 channels)."""
    if node.op_type != "CONV_2D" or folded_convolution_bias(graph, node, depthwise=False) is None:
        return 0
    _, filter_height, filter_width, channels = graph.tensor(node.inputs[1]).shape
    row_taps = filter_width if node.attributes.dilation_width == 1 else 1
    return filter_height * filter_width * channels if row_taps * channels < 16 else 0


def fixed_point_requantization(
    ctx: EmitContext, node: Node, multipliers: np.ndarray, shifts: np.ndarray
) -> tuple[list[str], StructValue]:
    """Definitions and the opbridge_requantization initializer of TFLite's multipliers and shifts."""
    multipliers_definition, multipliers_symbol = ctx.int32_array(node, "multipliers", multipliers)
    shifts_definition, shifts_symbol = ctx.int32_array(node, "shifts", shifts)
    initializer = requantization_value(CExpression(multipliers_symbol), CExpression(shifts_symbol), len(multipliers))
    return [multipliers_definition, shifts_definition], initializer


def float_requantization(ctx: EmitContext, node: Node, scales: np.ndarray) -> tuple[list[str], StructValue]:
    """Definitions and the opbridge_requantization initializer of ONNX's float32 scales."""
    scales_definition, scales_symbol = ctx.float32_array(node, "scales", scales)
    return [scales_definition], requantization_value(NULL, NULL, len(scales), CExpression(scales_symbol))


NULL = CExpression("NULL")


def requantization_value(
    multipliers: CExpression, shifts: CExpression, count: int, scales: CExpression = NULL
) -> StructValue:
    """An opbridge_requantization: fixed-point multipliers and shifts, or (ONNX) float32 scales."""
    return StructValue(
        "opbridge_requantization", fields(multipliers=multipliers, shifts=shifts, count=count, scales=scales)
    )


def emit_conv_2d(ctx: EmitContext, node: Node) -> NodeCode:
    return emit_convolution(ctx, node, depthwise=False)


def folded_bias_input(graph: Graph, node: Node) -> list[int]:
    """The bias, which the folded forms replace with the folded bias, and the filter when the node
    writes its own copy of it in the pairs layout (OperatorDefinition.absorbed_constants)."""
    depthwise = node.op_type == "DEPTHWISE_CONV_2D"
    folded = folded_convolution_bias(graph, node, depthwise) is not None
    absorbed = absorbed_bias(node, folded)
    if folded and folded_kernel(graph, node) == "opbridge_conv_2d_s8_folded_pairs":
        absorbed.append(node.inputs[1])  # the node writes its own copy in the pairs layout
    return absorbed
