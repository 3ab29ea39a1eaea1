# SPDX-License-Identifier: Apache-2.0
"""CONV_2D and DEPTHWISE_CONV_2D from ONNX: Conv (float32) and QLinearConv (int8), 1-D and 2-D, any group."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import (
    Int8Operands,
    bind_from_nhwc,
    ints,
    pad_nhwc,
    spatial_padding,
    spatial_rank,
    to_nhwc,
    with_unit_height,
)
from opbridge.frontends.onnx.quantized_helpers import int32_bias, qlinear_operands, requantization_of
from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Activation, Requantization
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.ops.strided_slice.attributes import StridedSliceAttributes


def convert_conv(conversion: OnnxConversion, node: OnnxNode) -> None:
    weights = conversion.constant_value(node.inputs[1], node, "the weights")
    bias = node.inputs[2] if len(node.inputs) > 2 and node.inputs[2] else None
    convolution(conversion, node, conversion.value(node.inputs[0], node), weights, bias, None)


def convolution(
    conversion: OnnxConversion,
    node: OnnxNode,
    x: int,
    weights: np.ndarray,
    bias: str | None,
    int8: Int8Operands | None,
) -> None:
    """Conv (float32) or QLinearConv (int8: `int8` set): OIHW weights and an NCHW input, or OIW
    weights and an NCW input (1-D: run as 2-D with a unit height)."""
    spatial = spatial_rank(conversion, node, x)
    if spatial == 1:
        if weights.ndim != 3:
            raise node.unsupported(f"weights of shape {list(weights.shape)} for a 1-D convolution (expected OIW)")
        node, weights = with_unit_height(node), weights[:, :, None, :]
    if weights.ndim != 4:
        raise node.unsupported(f"weights of shape {list(weights.shape)} for a 2-D convolution (expected OIHW)")
    out_channels, in_per_group, kernel_h, kernel_w = weights.shape
    shape = conversion.tensor(x).shape
    in_channels = shape[1]
    group = int(node.attribute("group", 1))
    strides = ints(node, "strides", (1, 1))
    dilations = ints(node, "dilations", (1, 1))
    input_hw = (1, shape[2]) if spatial == 1 else shape[2:4]
    padding = spatial_padding(node, input_hw, (kernel_h, kernel_w), strides, dilations)  # type: ignore[arg-type]
    nhwc = to_nhwc(conversion, node, x)
    if padding.explicit is not None:
        nhwc = pad_nhwc(conversion, node, nhwc, padding.explicit)
    dtype = conversion.tensor(x).dtype
    bias_index = None if bias is None else conversion.value(bias, node)
    activation = Activation.NONE if int8 is None else int8.activation
    requantization = Requantization.TFLITE if int8 is None else requantization_of(node)
    output_quantization = None if int8 is None else [int8.output]
    window = {
        "padding": padding.padding,
        "stride_height": strides[0],
        "stride_width": strides[1],
        "dilation_height": dilations[0],
        "dilation_width": dilations[1],
        "activation": activation,
        "requantization": requantization,
    }
    if group == 1:
        filter_q = None if int8 is None else int8.filter_quantization(axis=0)
        filter_index = conversion.constant(weights.transpose(0, 2, 3, 1), dtype, f"{node.name}/filter_ohwi", filter_q)
        inputs = [nhwc, filter_index, bias_index]
        result = conversion.emit(
            "CONV_2D", inputs, Conv2DAttributes(**window), name=node.name, quantization=output_quantization
        )[0]
    elif group == in_channels and in_per_group == 1 and out_channels % in_channels == 0:
        filter_q = None if int8 is None else int8.filter_quantization(axis=3)
        filter_index = conversion.constant(weights.transpose(1, 2, 3, 0), dtype, f"{node.name}/filter_1hwc", filter_q)
        attributes_dw = DepthwiseConv2DAttributes(**window, depth_multiplier=out_channels // in_channels)
        inputs = [nhwc, filter_index, bias_index]
        result = conversion.emit(
            "DEPTHWISE_CONV_2D", inputs, attributes_dw, name=node.name, quantization=output_quantization
        )[0]
    elif group > 1 and in_channels == group * in_per_group and out_channels % group == 0:
        result = grouped_convolution(conversion, node, nhwc, weights, bias_index, int8, group, window)
    else:
        raise node.unsupported(
            f"group={group} with {in_channels} input channels and weights {list(weights.shape)}",
            hint="ONNX requires input channels = group x weights.shape[1] and output channels divisible by group",
        )
    bind_from_nhwc(conversion, node, result, spatial)


def grouped_convolution(
    conversion: OnnxConversion,
    node: OnnxNode,
    nhwc: int,
    weights: np.ndarray,
    bias_index: int | None,
    int8: Int8Operands | None,
    group: int,
    window: dict[str, object],
) -> int:
    """A grouped convolution that is not depthwise, as one CONV_2D per group on a STRIDED_SLICE of
    the input channels, concatenated along the channels (the TFLite Micro kernels have no groups)."""
    out_channels, in_per_group = weights.shape[0], weights.shape[1]
    out_per_group = out_channels // group
    x = conversion.tensor(nhwc)
    dtype = x.dtype
    bias = None if bias_index is None else conversion.tensor(bias_index)
    if bias is not None and bias.data is None:
        raise node.unsupported(f"bias {bias.describe()} must be a constant for a grouped convolution")
    output_quantization = None if int8 is None else [int8.output]
    per_channel = int8 is not None and len(int8.filter_scales) > 1
    results = []
    for g in range(group):
        name = f"{node.name}/group{g}"
        begin = np.array([0, 0, 0, g * in_per_group], np.int32)
        end = np.array([*x.shape[:3], (g + 1) * in_per_group], np.int32)
        slice_inputs: list[int | None] = [
            nhwc,
            conversion.constant(begin, DType.INT32, f"{name}/begin"),
            conversion.constant(end, DType.INT32, f"{name}/end"),
            conversion.constant(np.ones(4, np.int32), DType.INT32, f"{name}/strides"),
        ]
        (channels,) = conversion.emit(
            "STRIDED_SLICE", slice_inputs, StridedSliceAttributes(), name=f"{name}/slice", quantization=[x.quantization]
        )
        rows = slice(g * out_per_group, (g + 1) * out_per_group)
        filter_q = None
        if int8 is not None:
            scales = int8.filter_scales[rows] if per_channel else int8.filter_scales
            zero_points = int8.filter_zero_points[rows] if per_channel else int8.filter_zero_points
            filter_q = Quantization(scales, zero_points, 0 if per_channel else None)
        filter_index = conversion.constant(weights[rows].transpose(0, 2, 3, 1), dtype, f"{name}/filter_ohwi", filter_q)
        group_bias = None
        if bias is not None and bias.data is not None:
            group_bias = conversion.constant(bias.data[rows], bias.dtype, f"{name}/bias", bias.quantization)
        inputs = [channels, filter_index, group_bias]
        attributes = Conv2DAttributes(**window)  # type: ignore[arg-type]
        results.append(conversion.emit("CONV_2D", inputs, attributes, name=name, quantization=output_quantization)[0])
    concatenation = ConcatenationAttributes(axis=3)
    return conversion.emit(
        "CONCATENATION", list(results), concatenation, name=node.name, quantization=output_quantization
    )[0]


def convert_qlinear_conv(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B) -> int8 CONV_2D / DEPTHWISE_CONV_2D."""
    x, weights, int8 = qlinear_operands(
        conversion, node, weights_rank=(3, 4), channels=lambda w: w.shape[0], output_at=6, symmetric=True
    )
    has_bias = int32_bias(conversion, node, 8) is not None
    convolution(conversion, node, x, weights, node.inputs[8] if has_bias else None, int8)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Conv", convert_conv),
    OnnxConverter("QLinearConv", convert_qlinear_conv),
)
