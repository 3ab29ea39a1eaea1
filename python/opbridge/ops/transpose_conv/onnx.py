# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV from ONNX: ConvTranspose, float32, 2-D (and 1-D, on a unit height), group 1, dilations 1.

The NCHW input is transposed to NHWC and the [C_in, C_out, kH, kW] weights rearranged to TFLite's OHWI
[C_out, kH, kW, C_in]; the result goes back to NCHW. ONNX places the output at input * stride - pad_begin +
tap, TFLite at input * stride - padding + tap with the padding SAME or VALID derive from the output size;
when one of them gives ONNX's leading pads, the node computes ONNX's output directly (contributions past
the end are dropped by both, output_padding rows are bias only in both). Otherwise it computes the
unpadded output (VALID, padding 0) and a STRIDED_SLICE cuts ONNX's pads away."""

import dataclasses

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import bind_from_nhwc, ints, spatial_rank, to_nhwc, with_unit_height
from opbridge.ir import DType
from opbridge.ir.attribute_types import Padding
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.strided_slice.onnx import strided_slice
from opbridge.ops.transpose_conv.attributes import TransposeConvAttributes
from opbridge.ops.transpose_conv.reference import transpose_conv_padding


@dataclasses.dataclass(frozen=True)
class AxisPlacement:
    """Where ONNX's output lies on one spatial axis: `begin` rows (or columns) cut from the front of the
    unpadded output, `size` kept."""

    begin: int
    size: int


def unit_height(node: OnnxNode) -> OnnxNode:
    """A 1-D ConvTranspose as the 2-D one on an N1WC input (with_unit_height, and the output_padding and
    output_shape it does not know: a leading 0 and 1)."""
    node = with_unit_height(node)
    attributes = dict(node.attributes)
    if "output_padding" in attributes:
        attributes["output_padding"] = [0, *ints(node, "output_padding", (0,))]
    if "output_shape" in attributes:
        attributes["output_shape"] = [1, *ints(node, "output_shape", ())[-1:]]
    return dataclasses.replace(node, attributes=attributes)


def placements(
    node: OnnxNode, input_hw: tuple[int, int], kernel: tuple[int, int], strides: tuple[int, int]
) -> tuple[AxisPlacement, AxisPlacement]:
    """ONNX's leading pad and output size per axis (ConvTranspose-11's rules, as onnxruntime applies them):
    from output_shape when given, else from auto_pad, else from pads."""
    output_padding = ints(node, "output_padding", (0, 0))
    auto_pad = node.attribute("auto_pad", "NOTSET")
    output_shape = ints(node, "output_shape", ())
    pads = ints(node, "pads", (0, 0, 0, 0))
    if len(output_padding) != 2 or len(pads) != 4 or (output_shape and len(output_shape) not in (2, 4)):
        raise node.unsupported(
            f"output_padding {list(output_padding)}, pads {list(pads)} or output_shape {list(output_shape)} is not 2-D"
        )
    if auto_pad not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        raise node.unsupported(f"auto_pad={auto_pad!r} is not an ONNX value")
    result = []
    for axis in range(2):
        if output_padding[axis] < 0:
            raise node.unsupported(f"output_padding {list(output_padding)} is negative")
        full = (input_hw[axis] - 1) * strides[axis] + kernel[axis] + output_padding[axis]
        if output_shape or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            size = output_shape[-2 + axis] if output_shape else input_hw[axis] * strides[axis]
            total = full - size
            begin = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
        elif auto_pad == "VALID":
            size, begin, total = full, 0, 0
        else:
            begin, end = pads[axis], pads[axis + 2]
            size, total = full - begin - end, begin + end
        if begin < 0 or total - begin < 0 or size < 1:
            raise node.unsupported(
                f"an output of {size} from {input_hw[axis]} inputs, kernel {kernel[axis]} and stride "
                f"{strides[axis]} (pads {begin} and {total - begin})",
                hint="opbridge converts pads >= 0 that leave a non-empty output",
            )
        result.append(AxisPlacement(begin, size))
    return result[0], result[1]


def convert_conv_transpose(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    spatial = spatial_rank(conversion, node, x)
    weights = np.asarray(conversion.constant_value(node.inputs[1], node, "the weights"))
    if spatial == 1:
        if weights.ndim != 3:
            raise node.unsupported(f"weights of shape {list(weights.shape)} for a 1-D ConvTranspose")
        node, weights = unit_height(node), weights[:, :, None, :]
    if weights.ndim != 4:
        raise node.unsupported(f"weights of shape {list(weights.shape)} for a 2-D ConvTranspose")
    tensor = conversion.tensor(x)
    if tensor.dtype is not DType.FLOAT32:
        raise node.unsupported(f"input {tensor.describe()} is {tensor.dtype.value}; opbridge converts float32")
    group = int(node.attribute("group", 1))
    dilations = ints(node, "dilations", (1, 1))
    if group != 1 or any(d != 1 for d in dilations):
        raise node.unsupported(
            f"group={group}, dilations={list(dilations)}", hint="TRANSPOSE_CONV has no groups and no dilation"
        )
    in_channels, out_channels, kernel_h, kernel_w = weights.shape
    batch, channels = tensor.shape[0], tensor.shape[1]
    input_hw = (1, tensor.shape[2]) if spatial == 1 else (tensor.shape[2], tensor.shape[3])
    if channels != in_channels:
        raise node.unsupported(f"input {tensor.describe()} has {channels} channels, the weights {in_channels}")
    kernel = (kernel_h, kernel_w)
    stride_list = ints(node, "strides", (1, 1))
    if len(stride_list) != 2 or min(stride_list) < 1:
        raise node.unsupported(f"strides={list(stride_list)}")
    strides = (stride_list[0], stride_list[1])
    rows, cols = placements(node, input_hw, kernel, strides)
    filter_ohwi = np.ascontiguousarray(weights.transpose(1, 2, 3, 0), np.float32)
    filter_index = conversion.constant(filter_ohwi, DType.FLOAT32, f"{node.name}/filter_ohwi")
    bias = node.inputs[2] if len(node.inputs) > 2 and node.inputs[2] else None
    bias_index = None if bias is None else conversion.value(bias, node)
    nhwc = to_nhwc(conversion, node, x)
    output_hw = (rows.size, cols.size)
    leading = (rows.begin, cols.begin)
    modes = (Padding.VALID, Padding.SAME)
    padding = next((m for m in modes if transpose_conv_padding(m, output_hw, kernel, strides) == leading), None)
    if padding is None:  # the unpadded output: VALID on a size >= kernel - stride pads nothing
        output_hw = (
            max(rows.begin + rows.size, kernel_h - strides[0], 1),
            max(cols.begin + cols.size, kernel_w - strides[1], 1),
        )
        assert transpose_conv_padding(Padding.VALID, output_hw, kernel, strides) == (0, 0)
    shape = np.array([batch, *output_hw, out_channels], np.int32)
    shape_index = conversion.constant(shape, DType.INT32, f"{node.name}/output_shape")
    attributes = TransposeConvAttributes(
        padding=padding or Padding.VALID, stride_height=strides[0], stride_width=strides[1]
    )
    inputs = [shape_index, filter_index, nhwc, bias_index]
    (result,) = conversion.emit("TRANSPOSE_CONV", inputs, attributes, name=node.name)
    if padding is None:
        bounds = [(0, batch, 1), (rows.begin, rows.begin + rows.size, 1), (cols.begin, cols.begin + cols.size, 1)]
        bounds.append((0, out_channels, 1))
        result = strided_slice(conversion, node, result, bounds, f"{node.name}/crop", None)
    bind_from_nhwc(conversion, node, result, spatial)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("ConvTranspose", convert_conv_transpose),)
