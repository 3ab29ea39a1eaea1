# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference TRANSPOSE_CONV on float32 (reference_ops::TransposeConv), bit for bit.

TFLite Micro zeroes the output and scatters: for each input row, column and
channel (outermost first), for each filter row, column and output channel, it
adds input * filter to the output element they reach, skipping those outside
the output. Then it adds the bias and clamps. One output element therefore sums
its products in increasing (input row, input column, input channel) order,
starting from 0.0f; the reference (and cc/kernels/opbridge_transpose_conv_f32.c)
gathers each output's products in exactly that order, so every float32 rounding
is TFLite Micro's.
"""

import math

import numpy as np

from opbridge.ir import Graph, Node
from opbridge.ir.attribute_types import Padding
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import clamp_float32, float_activation_range, require_float32

# TRANSPOSE_CONV's inputs, in LiteRT's order.
OUTPUT_SHAPE, FILTER, INPUT, BIAS = 0, 1, 2, 3


def _truncating_division(numerator: int, denominator: int) -> int:
    """C's integer division (rounds towards zero), not Python's floor division."""
    quotient = abs(numerator) // abs(denominator)
    return quotient if (numerator >= 0) == (denominator > 0) else -quotient


def _out_size(padding: Padding, image_size: int, filter_size: int, stride: int) -> int | None:
    """TFLite's ComputeOutSizeChecked (dilation 1), or None where it fails."""
    if image_size < 0 or filter_size <= 0 or stride <= 0:
        return None
    if padding is Padding.SAME:
        value = _truncating_division(image_size + stride - 1, stride)
    else:
        value = _truncating_division(image_size + stride - filter_size, stride)
    return None if value < 0 else value


def transpose_conv_padding(
    padding: Padding, output_hw: tuple[int, int], filter_hw: tuple[int, int], stride_hw: tuple[int, int]
) -> tuple[int, int]:
    """The (height, width) padding TFLite Micro's TRANSPOSE_CONV uses: TFLite's ComputePaddingHeightWidth
    with the *output's* height and width as the image size and dilation 1. Where ComputeOutSize fails on
    either axis (a VALID filter far larger than the output), both paddings stay 0, as in TFLite."""
    sizes = [_out_size(padding, output_hw[axis], filter_hw[axis], stride_hw[axis]) for axis in (1, 0)]
    if None in sizes:
        return 0, 0
    width_out, height_out = sizes
    assert width_out is not None and height_out is not None
    paddings = []
    for axis, out_size in ((0, height_out), (1, width_out)):
        total = max(0, (out_size - 1) * stride_hw[axis] + filter_hw[axis] - output_hw[axis])
        paddings.append(total // 2)
    return paddings[0], paddings[1]


def _axis_taps(
    output_size: int, input_size: int, filter_size: int, stride: int, padding: int
) -> list[tuple[Array, Array, Array]]:
    """For one spatial axis, the input positions that reach each output position, as arrays over the output
    positions (input index, filter index, whether it is a real tap), in increasing input order.

    Output o is reached by input i through filter tap f = o + padding - i * stride when 0 <= f < filter_size,
    i.e. by i = (o + padding) // stride - j for j = 0, 1, ...: the last of them has the largest j."""
    shifted = np.arange(output_size, dtype=np.int64) + padding
    last = shifted // stride
    taps = []
    for j in reversed(range(-(-filter_size // stride))):
        index = last - j
        filter_index = shifted - index * stride
        valid = (index >= 0) & (index < input_size) & (filter_index < filter_size)
        taps.append((np.clip(index, 0, input_size - 1), np.clip(filter_index, 0, filter_size - 1), valid))
    return taps


def _add(totals: Array, products: Array) -> Array:
    """totals + products in float32, and where both are NaN, the product's NaN (its sign bit): which of
    two NaNs an addition returns is the compiled code's choice, and TFLite Micro's (the tflite-micro
    package) returns the product's, while NumPy's vectorized add returns the first operand's."""
    return np.where(np.isnan(products), products, totals + products)


@np.errstate(all="ignore")  # overflow to inf and inf - inf = NaN, silently, as in C
def transpose_conv_reference(call: ReferenceCall) -> list[Array]:
    """float32 TRANSPOSE_CONV; the loops run over the taps and input channels in TFLite Micro's order,
    each step vectorized across the output positions and channels."""
    input_tensor, filter_tensor = call.input_tensor(INPUT), call.input_tensor(FILTER)
    bias_tensor = call.optional_input_tensor(BIAS)
    output = call.outputs[0]
    operands = [("input", input_tensor), ("filter", filter_tensor), ("output", output)]
    require_float32(call.node, operands + ([("bias", bias_tensor)] if bias_tensor is not None else []))
    values = np.asarray(call.value(INPUT), np.float32)
    weights = np.asarray(call.value(FILTER), np.float32)
    attributes = call.attributes
    batch, height, width, channels = values.shape
    _, filter_height, filter_width, _ = weights.shape
    _, out_height, out_width, out_channels = output.shape
    strides = (attributes.stride_height, attributes.stride_width)
    pad_h, pad_w = transpose_conv_padding(
        attributes.padding, (out_height, out_width), (filter_height, filter_width), strides
    )
    rows = _axis_taps(out_height, height, filter_height, strides[0], pad_h)
    cols = _axis_taps(out_width, width, filter_width, strides[1], pad_w)
    totals = np.zeros((batch, out_height, out_width, out_channels), np.float32)
    for in_y, filter_y, valid_y in rows:
        for in_x, filter_x, valid_x in cols:
            inside = valid_y[:, None] & valid_x[None, :]
            if not inside.any():
                continue
            mask = inside[None, :, :, None]
            taps = values[:, in_y][:, :, in_x]  # [batch, out_h, out_w, channels]
            for channel in range(channels):
                # [out_h, out_w, out_channels]: each output position's filter taps for this input channel.
                kernel = weights[:, filter_y[:, None], filter_x[None, :], channel].transpose(1, 2, 0)
                products = taps[..., channel : channel + 1] * kernel
                totals = np.where(mask, _add(totals, products), totals)
    if bias_tensor is not None:
        totals = totals + np.asarray(call.value(BIAS), np.float32)
    clamped = clamp_float32(totals, *float_activation_range(attributes.activation))
    return [clamped.reshape(output.shape)]


def transpose_conv_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Each input element (input 2) times the whole OHWI filter's taps and output channels (the scatter
    TFLite Micro runs); the output's size does not change it."""
    out_channels, taps_height, taps_width, _ = graph.tensor(node.inputs[1]).shape
    return math.prod(graph.tensor(node.inputs[2]).shape) * out_channels * taps_height * taps_width
