"""TFLite Micro's reference AVERAGE_POOL_2D, int8.

Each output averages only the input positions its window covers (padding is
not counted), rounding half away from zero.
"""

from collections.abc import Callable, Iterator

import numpy as np

from opbridge.ops.common import activation_range, require_quantization, window
from opbridge.ops.definition import Array, ReferenceCall

Reduce = Callable[[np.ndarray], np.ndarray]


def pool_windows(attributes: object, height: int, width: int) -> Iterator[tuple[int, int, slice, slice]]:
    """(out_y, out_x, rows, cols) of every output's window, clipped to the input."""
    rows = window(attributes.padding, height, attributes.filter_height, attributes.stride_height)
    cols = window(attributes.padding, width, attributes.filter_width, attributes.stride_width)
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
    return pool_reference(call, rounded_average)
