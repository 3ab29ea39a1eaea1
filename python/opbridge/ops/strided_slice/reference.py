# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's STRIDED_SLICE (reference_ops::StridedSlice with constant begin, end and strides).

Per axis of size n with stride s (never 0):
- begin b: b + n if negative, then clamped to [0, n] (s > 0) or [-1, n - 1]
  (s < 0); with the axis' begin_mask bit, 0 (s > 0) or n - 1 (s < 0);
- end e: likewise, with end_mask giving n (s > 0) or -1 (s < 0);
- the axis takes b, b + s, ... while before e (s > 0: index < e, s < 0:
  index > e);
- a shrink_axis_mask axis takes the one element at b and is dropped.

TFLite Micro ignores ellipsis_mask, new_axis_mask and offset, so a model
that sets them would not run as TFLite means; opbridge rejects them, as it
rejects a shrunk axis whose element is outside the axis or whose stride is
negative (TFLite Micro then leaves the output unwritten).
"""

import dataclasses

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.strided_slice.attributes import StridedSliceAttributes

MAX_RANK = 4
STRIDED_SLICE_DTYPES = (DType.BOOL, DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32)


@dataclasses.dataclass(frozen=True)
class SlicePlan:
    """The input elements a slice takes, per input axis."""

    starts: tuple[int, ...]
    counts: tuple[int, ...]  # elements taken along each axis (1 for a shrunk axis)
    strides: tuple[int, ...]
    output_shape: tuple[int, ...]  # counts without the shrunk axes

    def indices(self) -> list[Array]:
        return [
            np.arange(count, dtype=np.int64) * stride + start
            for start, count, stride in zip(self.starts, self.counts, self.strides, strict=True)
        ]


def _clamp(value: int, low: int, high: int) -> int:
    return min(max(value, low), high)


def constant_index_vector(node: Node, tensor: Tensor | None, role: str, rank: int) -> list[int]:
    """begin, end or strides: a constant int32 vector of `rank` entries."""
    if tensor is None:
        raise UnsupportedOperatorError(f"{node.describe()}: the {role} input is missing", hint="the model is damaged")
    if not tensor.is_constant or tensor.data is None:
        raise UnsupportedOperatorError(
            f"{node.describe()}: {role} {tensor.describe()} is computed at run time",
            hint="TFLite Micro's STRIDED_SLICE (and opbridge's) needs constant begin, end and strides",
        )
    if tensor.dtype is not DType.INT32 or tensor.shape != (rank,):
        raise UnsupportedTensorError(
            f"{node.describe()}: {role} {tensor.describe()} is not an int32 vector of {rank} entries "
            f"(one per input dimension)",
            hint="TFLite Micro reads begin, end and strides as int32, one entry per input dimension",
        )
    return [int(v) for v in np.asarray(tensor.data).ravel()]


def compute_plan(node: Node, shape: tuple[int, ...], begins: list[int], ends: list[int], steps: list[int]) -> SlicePlan:
    """TFLite Micro's per-axis begin/end arithmetic for `node`'s masks on an input of `shape`."""
    attributes: StridedSliceAttributes = node.attributes or StridedSliceAttributes()
    starts, counts, output_shape = [], [], []
    for axis, (size, b, e, s) in enumerate(zip(shape, begins, ends, steps, strict=True)):
        if s == 0:
            raise UnsupportedTensorError(f"{node.describe()}: stride 0 on axis {axis}", hint="strides must be non-zero")
        low, high = (0, size) if s > 0 else (-1, size - 1)
        start = _clamp(b + size if b < 0 else b, low, high)
        if attributes.begin_mask >> axis & 1:
            start = 0 if s > 0 else size - 1
        if attributes.shrink_axis_mask >> axis & 1:
            if s < 0 or not 0 <= start < size:
                raise UnsupportedOperatorError(
                    f"{node.describe()}: axis {axis} is shrunk to begin {b} with stride {s} "
                    f"(size {size}); TFLite Micro writes no output for it",
                    hint="shrink an axis only to an index inside it, with a positive stride",
                )
            starts.append(start)
            counts.append(1)
            continue
        stop = _clamp(e + size if e < 0 else e, low, high)
        if attributes.end_mask >> axis & 1:
            stop = size if s > 0 else -1
        count = len(range(start, stop, s))
        starts.append(start)
        counts.append(count)
        output_shape.append(count)
    return SlicePlan(tuple(starts), tuple(counts), tuple(steps), tuple(output_shape))


def plan_slice(
    node: Node, input_tensor: Tensor, begin: Tensor | None, end: Tensor | None, strides: Tensor | None, output: Tensor
) -> SlicePlan:
    """The slice of `node`, checked against what opbridge (and TFLite Micro) support."""
    attributes: StridedSliceAttributes = node.attributes or StridedSliceAttributes()
    for name, value in (
        ("ellipsis_mask", attributes.ellipsis_mask),
        ("new_axis_mask", attributes.new_axis_mask),
        ("offset", int(attributes.offset)),
    ):
        if value:
            raise UnsupportedOperatorError(
                f"{node.describe()}: {name} {value} is not supported",
                hint="TFLite Micro ignores it (computing another slice than TFLite); re-export without it",
            )
    for role, tensor in (("input", input_tensor), ("output", output)):
        if tensor.dtype not in STRIDED_SLICE_DTYPES or tensor.dtype is not input_tensor.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: STRIDED_SLICE supports "
                f"{', '.join(d.value for d in STRIDED_SLICE_DTYPES)}, the same for input and output",
                hint="these are the types TFLite Micro's STRIDED_SLICE takes",
            )
    rank = len(input_tensor.shape)
    if rank > MAX_RANK:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has rank {rank} > {MAX_RANK}",
            hint="TFLite Micro's STRIDED_SLICE takes at most 4 dimensions",
        )
    begins = constant_index_vector(node, begin, "begin", rank)
    ends = constant_index_vector(node, end, "end", rank)
    steps = constant_index_vector(node, strides, "strides", rank)
    plan = compute_plan(node, input_tensor.shape, begins, ends, steps)
    if tuple(output.shape) != plan.output_shape:
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} does not have the slice's shape {list(plan.output_shape)}",
            hint="the model is inconsistent",
        )
    return plan


def node_slice_plan(graph: Graph, node: Node) -> SlicePlan:
    """The slice of a node of `graph` (for the emitter)."""
    first, begin, end, strides = (graph.node_inputs(node) + [None] * 4)[:4]
    if first is None:
        raise UnsupportedOperatorError(f"{node.describe()}: the input is missing", hint="the model is damaged")
    return plan_slice(node, first, begin, end, strides, graph.tensor(node.outputs[0]))


def strided_slice_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    plan = plan_slice(
        call.node,
        call.input_tensor(0),
        call.optional_input_tensor(1),
        call.optional_input_tensor(2),
        call.optional_input_tensor(3),
        output,
    )
    values = call.value(0)
    taken = values[np.ix_(*plan.indices())] if values.ndim else values
    return [np.ascontiguousarray(taken).reshape(output.shape).astype(output.dtype.numpy)]
