# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's float32 SUM (ReduceGeneric, init 0, in + current).

TFLite Micro visits the input once in row-major order and adds each element
to its output, so each output is 0 + its elements in row-major order over
the reduced axes (sorted, repeats dropped: ResolveAxis), one float32
rounding per addition. The reference lays the input out as one row per
output and adds its columns in that order, never with np.sum (pairwise).
"""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.mean.reference import mean_axes
from opbridge.ops.shared.float32 import require_float32


def sum_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    axes, count = mean_axes(call.graph, call.node)
    values = np.asarray(call.value(0), dtype=np.float32)
    kept = [axis for axis in range(values.ndim) if axis not in axes]
    rows = np.transpose(values, kept + list(axes)).reshape(-1, count)
    total = np.zeros(rows.shape[0], dtype=np.float32)
    with np.errstate(all="ignore"):
        for column in range(count):
            total = total + rows[:, column]
    return [total.reshape(output.shape)]
