# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's ARG_MAX and ARG_MIN (reference_ops::ArgMinMax).

The input is seen as [outer, axis, inner]. For each (outer, inner) the kernel
takes element 0 of the axis, then visits elements 1 .. axis - 1 in order and
keeps element i only when it compares strictly greater (ARG_MAX, std::greater)
or strictly less (ARG_MIN, std::less) than the kept value: ties keep the first
index (0.0 and -0.0 tie), a NaN candidate never wins, and nothing wins over a
kept NaN, so a NaN at index 0 gives 0 and a later NaN is skipped. (This is the
TFLite Micro opbridge tests against, the pinned `tflite-micro` package; newer
TFLite Micro sources have a NaN-aware comparison that lets any value replace a
kept NaN.) int8 compares the stored values (any quantization: the order is the
real values' order). The axis is a constant one-element int32 or int64 tensor
(negative counts from the end); the output drops the axis and holds int32 or
int64 indices (the attribute output_type).
"""

import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.arg_max.attributes import ArgMinMaxAttributes
from opbridge.ops.definition import Array, ReferenceCall

INPUT_DTYPES = (DType.INT8, DType.FLOAT32)
AXIS_DTYPES = (DType.INT32, DType.INT64)
OUTPUT_DTYPES = (DType.INT32, DType.INT64)


@dataclasses.dataclass(frozen=True)
class ArgMinMaxLayout:
    axis: int  # normalized, in [0, rank)
    outer_size: int
    axis_size: int
    inner_size: int


def arg_min_max_layout(graph: Graph, node: Node) -> ArgMinMaxLayout:
    """The node's axis and the [outer, axis, inner] view of its input, with its dtypes checked; typed
    errors naming the node for a run-time or malformed axis, an empty axis and unsupported dtypes."""
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    if input_tensor.dtype not in INPUT_DTYPES:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} is {input_tensor.dtype.value}; "
            f"{node.op_type} takes {', '.join(d.value for d in INPUT_DTYPES)}",
            hint="TFLite Micro's ARG_MAX and ARG_MIN take int8 and float32 inputs",
        )
    attributes: ArgMinMaxAttributes | None = node.attributes
    expected = attributes.output_type if attributes is not None else DType.INT32
    if output.dtype not in OUTPUT_DTYPES or output.dtype is not expected:
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} is {output.dtype.value}; {node.op_type} writes "
            f"{expected.value} indices (int32 or int64)",
            hint="give the output tensor the index type output_type names",
        )
    if len(node.inputs) < 2 or node.inputs[1] is None:
        raise UnsupportedTensorError(f"{node.describe()}: the axis input is missing", hint="the model is damaged")
    axis_tensor = graph.tensor(node.inputs[1])
    if axis_tensor.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: axis {axis_tensor.describe()} is computed at run time",
            hint="the output shape depends on the axis: make it a constant of the model (fold what computes it)",
        )
    rank = len(input_tensor.shape)
    values = [int(v) for v in np.asarray(axis_tensor.data).ravel()]
    if axis_tensor.dtype not in AXIS_DTYPES or len(values) != 1 or rank == 0 or not -rank <= values[0] < rank:
        raise UnsupportedTensorError(
            f"{node.describe()}: axis {axis_tensor.describe()} = {values} is not one int32 or int64 axis of "
            f"input {input_tensor.describe()}",
            hint=f"give one axis in [{-rank}, {rank})" if rank else "the input needs at least one axis",
        )
    axis = values[0] % rank
    shape = input_tensor.shape
    axis_size = int(shape[axis])
    if axis_size < 1:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} is empty along axis {axis}",
            hint="an empty axis has no index to return",
        )
    return ArgMinMaxLayout(
        axis=axis,
        outer_size=int(np.prod(shape[:axis], dtype=np.int64)),
        axis_size=axis_size,
        inner_size=int(np.prod(shape[axis + 1 :], dtype=np.int64)),
    )


def wins(candidate: Array, current: Array, is_max: bool) -> Array:
    """TFLite Micro's comparison, `candidate > current` (ARG_MAX) or `candidate < current` (ARG_MIN): false
    whenever either is NaN."""
    with np.errstate(invalid="ignore"):
        return candidate > current if is_max else candidate < current


def arg_min_max_indices(values: Array, layout: ArgMinMaxLayout, is_max: bool) -> Array:
    """The winning index per (outer, inner), visiting the axis in order as the kernel does."""
    rows = np.asarray(values).reshape(layout.outer_size, layout.axis_size, layout.inner_size)
    current = rows[:, 0, :].copy()
    index = np.zeros(current.shape, np.int64)
    for i in range(1, layout.axis_size):
        candidate = rows[:, i, :]
        replace = wins(candidate, current, is_max)
        current = np.where(replace, candidate, current)
        index = np.where(replace, i, index)
    return index


def arg_min_max_reference(is_max: bool) -> Callable[[ReferenceCall], list[Array]]:
    def reference(call: ReferenceCall) -> list[Array]:
        layout = arg_min_max_layout(call.graph, call.node)
        output = call.outputs[0]
        dtype = np.float32 if call.input_tensor(0).dtype is DType.FLOAT32 else np.int8
        index = arg_min_max_indices(np.asarray(call.value(0), dtype=dtype), layout, is_max)
        return [index.astype(output.dtype.numpy).reshape(output.shape)]

    return reference


arg_max_reference = arg_min_max_reference(is_max=True)
