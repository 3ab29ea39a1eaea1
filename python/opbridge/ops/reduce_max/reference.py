# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's REDUCE_MAX (ReduceGeneric, init lowest, `(in > current) ? in : current`).

TFLite Micro fills each output with the type's lowest value (-FLT_MAX for
float32, -128 for int8), then visits the input once in row-major order and
keeps an element only when it compares greater than the output so far. The
reference lays the input out as one row per output and takes its columns in
that order with the same comparison (never np.max, which propagates NaN):
NaN and -inf never replace -FLT_MAX, and of equal values (0.0, -0.0) the
first stays. The reduced axes are sorted and their repeats dropped, as
ResolveAxis does; that does not change the visiting order.
"""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.mean.reference import mean_axes
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import INT8_MIN, require_dtype, require_quantization

FLOAT32_LOWEST = np.finfo(np.float32).min  # std::numeric_limits<float>::lowest()


def require_equal_quantization(node: Node, input_tensor: Tensor, output: Tensor) -> None:
    """int8: TFLite Micro's EvalMax fails unless the input's float32 scale and zero point equal the output's
    (it compares stored values, with no rescale); refused here with the node named, never run differently."""
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    if input_q.per_channel or output_q.per_channel:
        raise UnsupportedTensorError(
            f"{node.describe()}: int8 REDUCE_MAX needs per-tensor quantization ({input_q} -> {output_q})",
            hint="quantize the input and output per tensor",
        )
    if np.float32(input_q.scale) != np.float32(output_q.scale) or input_q.zero_point != output_q.zero_point:
        raise UnsupportedTensorError(
            f"{node.describe()}: input and output quantization differ ({input_q} vs {output_q})",
            hint="TFLite Micro's int8 REDUCE_MAX requires equal scales and zero points",
        )


def reduce_max_reference(call: ReferenceCall) -> list[Array]:
    input_tensor, output = call.input_tensor(0), call.outputs[0]
    if input_tensor.dtype is DType.FLOAT32:
        require_float32(call.node, [("input", input_tensor), ("output", output)])
        dtype, lowest = np.float32, np.float32(FLOAT32_LOWEST)
    else:
        require_equal_quantization(call.node, input_tensor, output)
        dtype, lowest = np.int8, np.int8(INT8_MIN)
    axes, count = mean_axes(call.graph, call.node)
    values = np.asarray(call.value(0), dtype=dtype)
    kept = [axis for axis in range(values.ndim) if axis not in axes]
    outputs = int(np.prod([values.shape[axis] for axis in kept], dtype=np.int64))
    # One row per output, its reduced elements in row-major order as the kernel visits them.
    rows = np.transpose(values, kept + list(axes)).reshape(outputs, count)
    current = np.full(outputs, lowest, dtype=dtype)
    with np.errstate(invalid="ignore"):
        for column in range(count):
            candidate = rows[:, column]
            current = np.where(candidate > current, candidate, current)
    return [current.astype(dtype).reshape(output.shape)]
