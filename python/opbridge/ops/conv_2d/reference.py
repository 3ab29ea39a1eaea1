"""TFLite Micro's reference CONV_2D, int8 per-channel (ConvPerChannel)."""

import numpy as np

from opbridge.ops.common import activation_range, per_channel_multipliers, require_quantization, window
from opbridge.ops.definition import Array, ReferenceCall
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
    rows = window(attributes.padding, height, filter_height, attributes.stride_height, attributes.dilation_height)
    cols = window(attributes.padding, width, filter_width, attributes.stride_width, attributes.dilation_width)
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


def conv_2d_reference(call: ReferenceCall) -> list[Array]:
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
    multipliers, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, out_channels)
    scaled = multiply_by_quantized_multiplier(accumulators, multipliers, shifts) + output_q.zero_point
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(scaled, low, high).astype(np.int8).reshape(output.shape)]
