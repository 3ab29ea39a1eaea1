# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE from ONNX: Slice, and Split (one STRIDED_SLICE per output).

ONNX clamps starts and ends as Python's slices do; the converter resolves each axis to concrete
indices at conversion time (`slice.indices`), so the STRIDED_SLICE it writes holds no negative or
out-of-range index, except an end of -1 with a negative step ("up to and including element 0"),
which is written as end_mask."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.strided_slice.attributes import StridedSliceAttributes


def strided_slice(
    conversion: OnnxConversion,
    node: OnnxNode,
    x: int,
    bounds: list[tuple[int, int, int]],
    name: str,
    output: str | None,
) -> int:
    """A STRIDED_SLICE of `x` along every axis, each (start, stop, step) as `slice.indices` gives them."""
    end_mask = 0
    for axis, (_, stop, step) in enumerate(bounds):
        if step < 0 and stop < 0:
            end_mask |= 1 << axis
    begin = np.array([start for start, _, _ in bounds], np.int32)
    end = np.array([max(stop, 0) for _, stop, _ in bounds], np.int32)
    strides = np.array([step for _, _, step in bounds], np.int32)
    inputs: list[int | None] = [
        x,
        conversion.constant(begin, DType.INT32, f"{name}/begin"),
        conversion.constant(end, DType.INT32, f"{name}/end"),
        conversion.constant(strides, DType.INT32, f"{name}/strides"),
    ]
    attributes = StridedSliceAttributes(end_mask=end_mask)
    outputs: tuple[str, ...] | int = (output,) if output is not None else 1
    return conversion.emit("STRIDED_SLICE", inputs, attributes, name=name, outputs=outputs)[0]


def onnx_slice_bounds(start: int, end: int, step: int, size: int) -> tuple[int, int, int]:
    """(start, stop, step) of an ONNX Slice along an axis of `size`, with ONNX's clamping: starts to
    [0, size] ([0, size - 1] for a negative step), ends to [0, size] ([-1, size - 1]: -1 is "past
    element 0"); INT64_MAX / INT64_MIN ends mean "to the end" / "to the start". A step longer than
    the axis takes one element, as a step of the axis' size does (and fits in int32)."""
    start, stop, step = slice(start, end, step).indices(size)
    if step < 0 and start < 0:
        start = 0  # Python leaves a start before element 0 there (an empty slice); ONNX clamps it to 0
    step = max(-size, min(size, step))
    return start, stop, step


def _axis(node: OnnxNode, axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise node.unsupported(f"axis {axis} for an input of rank {rank}")
    return axis % rank


def convert_slice(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Slice(data, starts, ends[, axes[, steps]]) with constant starts, ends, axes and steps."""
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    rank = len(shape)

    def vector(position: int, role: str, default: list[int]) -> list[int]:
        if len(node.inputs) <= position or not node.inputs[position]:
            return default
        return [int(v) for v in conversion.constant_value(node.inputs[position], node, role).ravel()]

    starts = vector(1, "starts", [])
    ends = vector(2, "ends", [])
    axes = [_axis(node, a, rank) for a in vector(3, "axes", list(range(len(starts))))]
    steps = vector(4, "steps", [1] * len(starts))
    if not len(starts) == len(ends) == len(axes) == len(steps) or len(set(axes)) != len(axes):
        raise node.unsupported(f"starts {starts}, ends {ends}, axes {axes} and steps {steps} do not pair up")
    if 0 in steps:
        raise node.unsupported("a step of 0")
    bounds = [(0, size, 1) for size in shape]
    for start, end, axis, step in zip(starts, ends, axes, steps, strict=True):
        bounds[axis] = onnx_slice_bounds(start, end, step, shape[axis])
    strided_slice(conversion, node, x, bounds, node.name, node.outputs[0])


def convert_split(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Split into parts along `axis`: sizes from the constant `split` input (opset 13+), else equal parts
    (opset 18's num_outputs, or one per output)."""
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    axis = _axis(node, int(node.attribute("axis", 0)), len(shape))
    size = shape[axis]
    count = len(node.outputs)
    if len(node.inputs) > 1 and node.inputs[1]:
        sizes = [int(v) for v in conversion.constant_value(node.inputs[1], node, "the split sizes").ravel()]
    else:
        if "num_outputs" not in node.attributes and size % count:
            raise node.unsupported(f"an axis of size {size} split into {count} equal parts")
        part = -(-size // count)  # opset 18's num_outputs: the last part is smaller when the size does not divide
        sizes = [min(part, size - i * part) for i in range(count)]
    if len(sizes) != count or sum(sizes) != size or min(sizes) < 0:
        raise node.unsupported(f"split sizes {sizes} for {count} outputs of an axis of size {size}")
    start = 0
    for position, (part_size, output) in enumerate(zip(sizes, node.outputs, strict=True)):
        bounds = [(0, s, 1) for s in shape]
        bounds[axis] = (start, start + part_size, 1)
        start += part_size
        if output:
            strided_slice(conversion, node, x, bounds, f"{node.name}/{position}", output)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Slice", convert_slice),
    OnnxConverter("Split", convert_split),
)
