# SPDX-License-Identifier: Apache-2.0
"""CONV_2D and DEPTHWISE_CONV_2D from ONNX: Conv (float32) and QLinearConv (int8), groups 1 or depthwise."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import (
    TO_NHWC,
    Int8Operands,
    bind_nchw,
    ints,
    pad_nhwc,
    require_rank,
    spatial_padding,
    transpose,
)
from opbridge.frontends.onnx.quantized_helpers import int32_bias, qlinear_operands
from opbridge.ir.attribute_types import Activation, Requantization
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes


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
    """Conv (float32) or QLinearConv (int8: `int8` set): OIHW weights, an NCHW input."""
    require_rank(conversion, node, x, 4)
    if weights.ndim != 4:
        raise node.unsupported(f"weights of shape {list(weights.shape)}: only 2-D convolutions (OIHW)")
    out_channels, in_per_group, kernel_h, kernel_w = weights.shape
    in_channels = conversion.tensor(x).shape[1]
    group = int(node.attribute("group", 1))
    strides = ints(node, "strides", (1, 1))
    dilations = ints(node, "dilations", (1, 1))
    input_hw = conversion.tensor(x).shape[2:4]
    padding = spatial_padding(node, input_hw, (kernel_h, kernel_w), strides, dilations)  # type: ignore[arg-type]
    nhwc = transpose(conversion, x, TO_NHWC, f"{node.name}/to_nhwc")
    if padding.explicit is not None:
        nhwc = pad_nhwc(conversion, node, nhwc, padding.explicit)
    dtype = conversion.tensor(x).dtype
    bias_index = None if bias is None else conversion.value(bias, node)
    activation = Activation.NONE if int8 is None else int8.activation
    requantization = Requantization.TFLITE if int8 is None else Requantization.ONNX
    output_quantization = None if int8 is None else [int8.output]
    if group == 1:
        filter_q = None if int8 is None else int8.filter_quantization(axis=0)
        filter_index = conversion.constant(weights.transpose(0, 2, 3, 1), dtype, f"{node.name}/filter_ohwi", filter_q)
        attributes = Conv2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            dilation_height=dilations[0],
            dilation_width=dilations[1],
            activation=activation,
            requantization=requantization,
        )
        inputs = [nhwc, filter_index, bias_index]
        result = conversion.emit("CONV_2D", inputs, attributes, name=node.name, quantization=output_quantization)[0]
    elif group == in_channels and in_per_group == 1 and out_channels % in_channels == 0:
        filter_q = None if int8 is None else int8.filter_quantization(axis=3)
        filter_index = conversion.constant(weights.transpose(1, 2, 3, 0), dtype, f"{node.name}/filter_1hwc", filter_q)
        attributes_dw = DepthwiseConv2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            dilation_height=dilations[0],
            dilation_width=dilations[1],
            depth_multiplier=out_channels // in_channels,
            activation=activation,
            requantization=requantization,
        )
        inputs = [nhwc, filter_index, bias_index]
        result = conversion.emit(
            "DEPTHWISE_CONV_2D", inputs, attributes_dw, name=node.name, quantization=output_quantization
        )[0]
    else:
        raise node.unsupported(f"group={group} (only 1, or depthwise with group = input channels {in_channels})")
    bind_nchw(conversion, node, result)


def convert_qlinear_conv(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B) -> int8 CONV_2D / DEPTHWISE_CONV_2D."""
    x, weights, int8 = qlinear_operands(
        conversion, node, weights_rank=4, channels=lambda w: w.shape[0], output_at=6, symmetric=True
    )
    has_bias = int32_bias(conversion, node, 8) is not None
    convolution(conversion, node, x, weights, node.inputs[8] if has_bias else None, int8)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Conv", convert_conv),
    OnnxConverter("QLinearConv", convert_qlinear_conv),
)
