"""TFLite Micro's reference MAX_POOL_2D, int8: the largest value each window covers."""

import numpy as np

from opbridge.ops.common import activation_range, require_quantization, window
from opbridge.ops.definition import Array, ReferenceCall


def max_pool_2d_reference(call: ReferenceCall) -> list[Array]:
    attributes = call.attributes
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    values = call.value(0).astype(np.int64)
    batch, height, width, channels = values.shape
    rows = window(attributes.padding, height, attributes.filter_height, attributes.stride_height)
    cols = window(attributes.padding, width, attributes.filter_width, attributes.stride_width)
    low, high = activation_range(attributes.activation, output_q)
    result = np.full((batch, rows.output_size, cols.output_size, channels), -128, dtype=np.int64)
    for out_y in range(rows.output_size):
        y_origin = out_y * attributes.stride_height - rows.padding_before
        y_start, y_end = max(0, y_origin), min(height, y_origin + attributes.filter_height)
        for out_x in range(cols.output_size):
            x_origin = out_x * attributes.stride_width - cols.padding_before
            x_start, x_end = max(0, x_origin), min(width, x_origin + attributes.filter_width)
            if y_end > y_start and x_end > x_start:
                result[:, out_y, out_x, :] = values[:, y_start:y_end, x_start:x_end, :].max(axis=(1, 2))
    return [np.clip(result, low, high).astype(np.int8).reshape(output.shape)]
