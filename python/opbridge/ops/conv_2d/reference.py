# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference CONV_2D: int8 per-channel (ConvPerChannel) and float32 (Conv)."""

import numpy as np

from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Requantization, spatial_windows
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import clamp_float32, float_activation_range, require_float32
from opbridge.ops.shared.quantized import (
    activation_range,
    onnx_output_scales,
    per_channel_multipliers,
    requantize_float_scale,
    require_quantization,
)
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier


def extract_patches(
    values: np.ndarray,
    filter_height: int,
    filter_width: int,
    attributes: object,
    pad_value: int,
) -> tuple[np.ndarray, int, int]:
    """im2col: [batch, out_h, out_w, filter_h, filter_w, channels] windows of an NHWC input.

    Positions outside the input read `pad_value` (the input zero point, which
    contributes nothing once the offset is subtracted).
    """
    batch, height, width, channels = values.shape
    rows, cols = spatial_windows(attributes, height, width, filter_height, filter_width)
    padded_height = max(
        height + rows.padding_before,
        (rows.output_size - 1) * attributes.stride_height + (filter_height - 1) * attributes.dilation_height + 1,
    )
    padded_width = max(
        width + cols.padding_before,
        (cols.output_size - 1) * attributes.stride_width + (filter_width - 1) * attributes.dilation_width + 1,
    )
    padded = np.full((batch, padded_height, padded_width, channels), pad_value, dtype=np.int64)
    padded[:, rows.padding_before : rows.padding_before + height, cols.padding_before : cols.padding_before + width] = (
        values
    )
    out_y = np.arange(rows.output_size) * attributes.stride_height
    out_x = np.arange(cols.output_size) * attributes.stride_width
    filter_y = np.arange(filter_height) * attributes.dilation_height
    filter_x = np.arange(filter_width) * attributes.dilation_width
    y = out_y[:, None, None, None] + filter_y[None, None, :, None]
    x = out_x[None, :, None, None] + filter_x[None, None, None, :]
    patches = padded[:, y, x, :]  # [batch, out_h, out_w, f_h, f_w, channels]
    return patches, rows.output_size, cols.output_size


@np.errstate(all="ignore")  # overflow to inf and inf - inf = NaN, silently, as in C
def convolution_float32(call: ReferenceCall, depthwise: bool) -> list[Array]:
    """TFLite Micro's float Conv / DepthwiseConv, in the C kernels' order (cc/kernels/opbridge_conv_f32.c).

    Each output is the sum over filter_y, filter_x, then input channel of
    input * filter, taps outside the input skipped, then + bias, then the
    fused activation, each step rounded to float32. The loops run over the
    taps; each step is vectorized across the output positions and channels.
    """
    bias_tensor = call.optional_input_tensor(2)
    operands = [("input", call.input_tensor(0)), ("filter", call.input_tensor(1)), ("output", call.outputs[0])]
    require_float32(call.node, operands + ([("bias", bias_tensor)] if bias_tensor is not None else []))
    values = call.value(0)
    weights = call.value(1)
    bias = call.value(2) if bias_tensor is not None else None
    attributes = call.attributes
    batch, height, width, in_channels = values.shape
    if depthwise:
        _, filter_height, filter_width, out_channels = weights.shape
        multiplier = out_channels // in_channels  # the shapes decide, as in TFLite Micro
    else:
        out_channels, filter_height, filter_width, _ = weights.shape
        multiplier = 1
    rows, cols = spatial_windows(attributes, height, width, filter_height, filter_width)
    y_origins = np.arange(rows.output_size) * attributes.stride_height - rows.padding_before
    x_origins = np.arange(cols.output_size) * attributes.stride_width - cols.padding_before
    totals = np.zeros((batch, rows.output_size, cols.output_size, out_channels), np.float32)
    for filter_y in range(filter_height):
        in_y = y_origins + filter_y * attributes.dilation_height
        inside_y = (in_y >= 0) & (in_y < height)
        if not inside_y.any():
            continue
        for filter_x in range(filter_width):
            in_x = x_origins + filter_x * attributes.dilation_width
            inside_x = (in_x >= 0) & (in_x < width)
            if not inside_x.any():
                continue
            inside = (inside_y[:, None] & inside_x[None, :])[None, :, :, None]
            # [batch, out_h, out_w, in_channels]; taps outside the input read a clipped index and are masked out.
            taps = values[:, np.clip(in_y, 0, height - 1)][:, :, np.clip(in_x, 0, width - 1)]
            if depthwise:
                products = np.repeat(taps, multiplier, axis=-1) * weights[0, filter_y, filter_x]
                totals = np.where(inside, totals + products, totals)
                continue
            for channel in range(in_channels):
                products = taps[..., channel : channel + 1] * weights[:, filter_y, filter_x, channel]
                totals = np.where(inside, totals + products, totals)
    if bias is not None:
        totals = totals + bias
    clamped = clamp_float32(totals, *float_activation_range(attributes.activation))
    return [clamped.reshape(call.outputs[0].shape)]


def conv_2d_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return convolution_float32(call, depthwise=False)
    input_tensor = call.input_tensor(0)
    filter_tensor = call.input_tensor(1)
    bias_tensor = call.optional_input_tensor(2)
    output = call.outputs[0]
    input_q = require_quantization(call.node, input_tensor, "input")
    filter_q = require_quantization(call.node, filter_tensor, "filter")
    output_q = require_quantization(call.node, output, "output")

    out_channels, filter_height, filter_width, _ = filter_tensor.shape
    values = call.value(0).astype(np.int64)
    patches, out_height, out_width = extract_patches(
        values, filter_height, filter_width, call.attributes, input_q.zero_point
    )
    batch = values.shape[0]
    columns = patches.reshape(batch * out_height * out_width, -1) - input_q.zero_point
    weights = call.value(1).astype(np.int64).reshape(out_channels, -1)
    accumulators = columns @ weights.T
    if bias_tensor is not None:
        accumulators = accumulators + call.value(2).astype(np.int64)
    scaled = requantize_convolution(accumulators, call.attributes, input_q, filter_q, output_q, out_channels)
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(scaled, low, high).astype(np.int8).reshape(output.shape)]


def requantize_convolution(
    accumulators: np.ndarray,
    attributes: object,
    input_q: Quantization,
    filter_q: Quantization,
    output_q: Quantization,
    out_channels: int,
) -> np.ndarray:
    """[..., out_channels] int32 accumulators -> output values (+ zero point, before the activation clamp)."""
    if attributes.requantization is Requantization.ONNX:  # type: ignore[attr-defined]
        scales = onnx_output_scales(input_q.scale, filter_q.scales, output_q.scale, out_channels)
        return requantize_float_scale(accumulators, scales, output_q.zero_point)
    multipliers, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, out_channels)
    return multiply_by_quantized_multiplier(accumulators, multipliers, shifts) + output_q.zero_point
