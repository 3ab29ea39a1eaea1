# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference AVERAGE_POOL_2D, int8 and float32.

Each output averages only the input positions its window covers (padding,
SAME's or the explicit `pads` of ONNX's count_include_pad=0, is not
counted: one divisor per output position): int8 rounding half away from
zero; float32 as TFLite Micro's float kernel, 0 plus the covered values in
window order (rows, then columns), one float32 rounding per addition,
divided by their count, then the fused activation's clamp.
"""

from collections.abc import Callable, Iterator

import numpy as np

from opbridge.ir import DType
from opbridge.ir.attribute_types import window
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes, pool_axis_padding
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import FLOAT32_LOWEST, clamp_float32, float_activation_range, require_float32
from opbridge.ops.shared.quantized import activation_range, require_quantization

Reduce = Callable[[np.ndarray], np.ndarray]


def pool_windows(attributes: Pool2DAttributes, height: int, width: int) -> Iterator[tuple[int, int, slice, slice]]:
    """(out_y, out_x, rows, cols) of every output's window, clipped to the input."""
    rows = window(pool_axis_padding(attributes, 1), height, attributes.filter_height, attributes.stride_height)
    cols = window(pool_axis_padding(attributes, 2), width, attributes.filter_width, attributes.stride_width)
    for out_y in range(rows.output_size):
        y_origin = out_y * attributes.stride_height - rows.padding_before
        y_range = slice(max(0, y_origin), min(height, y_origin + attributes.filter_height))
        for out_x in range(cols.output_size):
            x_origin = out_x * attributes.stride_width - cols.padding_before
            yield out_y, out_x, y_range, slice(max(0, x_origin), min(width, x_origin + attributes.filter_width))


def pool_reference(call: ReferenceCall, reduce: Reduce) -> list[Array]:
    """A pooling node: `reduce` maps [batch, h, w, channels] windows to [batch, channels]."""
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    values = call.value(0).astype(np.int64)
    result = np.zeros(output.shape, dtype=np.int64)
    for out_y, out_x, rows, cols in pool_windows(call.attributes, values.shape[1], values.shape[2]):
        result[:, out_y, out_x, :] = reduce(values[:, rows, cols, :])
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(result, low, high).astype(np.int8)]


def rounded_average(windows: np.ndarray) -> np.ndarray:
    total = windows.sum(axis=(1, 2))
    count = windows.shape[1] * windows.shape[2]
    # C integer division truncates toward zero; the half-count nudge rounds half away from zero.
    nudged = np.where(total > 0, total + count // 2, total - count // 2)
    return np.sign(nudged) * (np.abs(nudged) // count)


def average_pool_2d_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_pool_reference(call, average=True)
    return pool_reference(call, rounded_average)


def float32_pool_reference(call: ReferenceCall, average: bool) -> list[Array]:
    """float32 AVERAGE_POOL_2D (average=True) or MAX_POOL_2D, in the C kernel's order.

    One pass per filter position (row-major), each over every output at once:
    an output takes the position only if it falls inside the input, so each
    output sees its covered values in the kernel's order.
    """
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    a = call.attributes
    values = np.asarray(call.value(0), dtype=np.float32)
    _, height, width, _ = values.shape
    rows = window(pool_axis_padding(a, 1), height, a.filter_height, a.stride_height)
    cols = window(pool_axis_padding(a, 2), width, a.filter_width, a.stride_width)
    y_origins = np.arange(rows.output_size) * a.stride_height - rows.padding_before
    x_origins = np.arange(cols.output_size) * a.stride_width - cols.padding_before
    shape = (values.shape[0], rows.output_size, cols.output_size, values.shape[3])
    total = np.zeros(shape, dtype=np.float32)
    maximum = np.full(shape, FLOAT32_LOWEST, dtype=np.float32)
    count = np.zeros((1, rows.output_size, cols.output_size, 1), dtype=np.int64)
    with np.errstate(all="ignore"):
        for filter_y in range(a.filter_height):
            y = y_origins + filter_y
            y_inside = (y >= 0) & (y < height)
            for filter_x in range(a.filter_width):
                x = x_origins + filter_x
                inside = (y_inside[:, None] & ((x >= 0) & (x < width))[None, :])[None, :, :, None]
                taken = values[:, np.clip(y, 0, height - 1)][:, :, np.clip(x, 0, width - 1)]
                total = np.where(inside, total + taken, total)
                maximum = np.where(inside & (maximum < taken), taken, maximum)
                count = count + inside
        result = total / count.astype(np.float32) if average else maximum
    low, high = float_activation_range(a.activation)
    return [clamp_float32(result, low, high)]
