# SPDX-License-Identifier: Apache-2.0
"""Shape rules shared by several operators' inference functions.

A size of -1 is known only at run time; the rules keep it unknown (or
resolve it when the other operand decides), never guess it.
"""

import math
from typing import Any

import numpy as np

from opbridge.ir.attribute_types import AxisPadding, Padding, padding_name, window
from opbridge.schemas.schema import InferenceContext, TensorType


def broadcast(ctx: InferenceContext, first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy broadcasting of two shapes (sizes equal, or one of them 1; -1 stays unknown)."""
    rank = max(len(first), len(second))
    a = (1,) * (rank - len(first)) + tuple(first)
    b = (1,) * (rank - len(second)) + tuple(second)
    result = []
    for axis, (x, y) in enumerate(zip(a, b, strict=True)):
        if x == y or y == 1:
            result.append(x)
        elif x == 1:
            result.append(y)
        elif x == -1 or y == -1:
            result.append(max(x, y))
        else:
            raise ctx.fail(
                f"shapes {list(first)} and {list(second)} do not broadcast (axis {axis}: {x} vs {y})",
                hint="sizes must be equal or 1 on every axis, counted from the last",
            )
    return tuple(result)


def infer_broadcast_binary(ctx: InferenceContext) -> list[TensorType]:
    """An element-wise binary op: the inputs' dtype (one type variable), their broadcast shape."""
    first, second = ctx.input(0), ctx.input(1)
    return [TensorType(first.dtype, broadcast(ctx, first.shape, second.shape))]


def element_count(shape: tuple[int, ...]) -> int:
    """The number of elements, or -1 if a size is known only at run time."""
    return -1 if -1 in shape else math.prod(shape)


def require_rank(ctx: InferenceContext, shape: tuple[int, ...], rank: int, what: str) -> None:
    if len(shape) != rank:
        raise ctx.fail(f"{what} has shape {list(shape)}; it must have {rank} dimensions")


def normalize_axis(ctx: InferenceContext, axis: int, rank: int, what: str = "axis") -> int:
    """An axis in [-rank, rank) as a position in [0, rank), as TFLite resolves negative axes."""
    if not -rank <= axis < rank:
        raise ctx.fail(
            f"{what} {axis} is outside [{-rank}, {rank}) for a tensor of rank {rank}",
            hint="negative axes count from the last dimension",
        )
    return axis % rank


def constant_input(ctx: InferenceContext, position: int, what: str) -> np.ndarray[Any, Any]:
    """The value of an input the output shape depends on; ShapeInferenceError unless it is a constant."""
    info = ctx.input(position)
    if info.value is None:
        raise ctx.fail(
            f"the {what} (input {position}) is computed at run time, but the output shape depends on its value",
            hint=f"make the {what} a constant of the model (fold the subgraph that computes it)",
        )
    return np.asarray(info.value)


def constant_int_vector(ctx: InferenceContext, position: int, what: str, length: int | None = None) -> list[int]:
    """A constant 1-D integer input (e.g. begin, end, strides), with `length` entries if given."""
    values = constant_input(ctx, position, what)
    if values.ndim != 1 or (length is not None and values.shape[0] != length):
        expected = "a vector" if length is None else f"a vector of {length} entries (one per input dimension)"
        raise ctx.fail(f"the {what} (input {position}) has shape {list(values.shape)}; it must be {expected}")
    return [int(v) for v in values]


def window_2d(
    ctx: InferenceContext,
    padding: Padding | tuple[AxisPadding, AxisPadding],
    input_hw: tuple[int, int],
    filter_hw: tuple[int, int],
    stride_hw: tuple[int, int],
    dilation_hw: tuple[int, int] = (1, 1),
) -> tuple[int, int]:
    """Output height and width of a convolution or pooling window (TFLite's ComputeOutSize)."""
    sizes = []
    paddings = padding if isinstance(padding, tuple) else (padding, padding)
    for name, axis_pad, size, filter_size, stride, dilation in zip(
        ("height", "width"), paddings, input_hw, filter_hw, stride_hw, dilation_hw, strict=True
    ):
        if stride < 1 or dilation < 1 or filter_size < 1:
            raise ctx.fail(
                f"{name}: stride {stride}, dilation {dilation} and filter size {filter_size} must all be positive"
            )
        if size == -1:
            sizes.append(-1)
            continue
        output_size = window(axis_pad, size, filter_size, stride, dilation).output_size
        if output_size < 1:
            raise ctx.fail(
                f"{name}: a {padding_name(axis_pad)} window of {filter_size} (dilation {dilation}) does not fit "
                f"an input of {size}, so the output would be empty",
                hint="use SAME padding, a smaller filter, or a larger input",
            )
        sizes.append(output_size)
    return sizes[0], sizes[1]
