# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's RESIZE_NEAREST_NEIGHBOR (reference_ops::ResizeNearestNeighbor), NHWC; the checks both
resize operators share.

Output (n, y, x, c) is input (n, in_y, in_x, c) with, per axis, in float32:
scale = in / out (align_corners and out > 1: (in - 1) / (out - 1)), then
floor((i + offset) * scale) (align_corners: rounded half away from zero),
offset 0.5 with half_pixel_centers, capped at in - 1 (and at 0 from below
with half_pixel_centers). TFLite Micro takes both options together here.
Elements are moved, never changed (float32, int8, int16). The size input
must be a constant int32 [2] (TFLite Micro refuses any other); opbridge
requires sizes >= 1, the output shape [N, size[0], size[1], C], and an
integer output quantized as the input (TFLite Micro copies stored values).
"""

import dataclasses

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.resize_nearest_neighbor.attributes import ResizeAttributes

NEAREST_DTYPES = (DType.INT8, DType.INT16, DType.FLOAT32)


@dataclasses.dataclass(frozen=True)
class ResizeGeometry:
    batch: int
    input_height: int
    input_width: int
    depth: int
    output_height: int
    output_width: int
    align_corners: bool
    half_pixel_centers: bool


def constant_size(graph: Graph, node: Node) -> tuple[int, int]:
    """The node's size input: a constant int32 [2] of (height, width), both >= 1."""
    index = node.inputs[1] if len(node.inputs) > 1 else None
    if index is None:
        raise UnsupportedOperatorError(f"{node.describe()}: the size input is missing", hint="the model is damaged")
    size = graph.tensor(index)
    if size.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: size {size.describe()} is computed at run time",
            hint="TFLite Micro requires a constant size: make it a constant of the model (fold what computes it)",
        )
    values = [int(v) for v in np.asarray(size.data).ravel()]
    if size.dtype is not DType.INT32 or size.shape != (2,) or min(values) < 1:
        raise UnsupportedTensorError(
            f"{node.describe()}: size {size.describe()} = {values} is not an int32 [2] of a height and width >= 1",
            hint="give the output's height and width, each at least 1",
        )
    return values[0], values[1]


def check_resize(graph: Graph, node: Node, dtypes: tuple[DType, ...]) -> ResizeGeometry:
    """The node's geometry after checking dtypes, quantization, rank, size and output shape; typed errors naming
    the node."""
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    for role, tensor in (("input", input_tensor), ("output", output)):
        if tensor.dtype not in dtypes or tensor.dtype is not input_tensor.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: {node.op_type} supports "
                f"{', '.join(d.value for d in dtypes)}, the same for input and output",
                hint="TFLite Micro's kernel takes these types only",
            )
    if input_tensor.dtype is not DType.FLOAT32:
        input_q, output_q = input_tensor.quantization, output.quantization
        if (input_q is None) != (output_q is None) or (
            input_q is not None
            and output_q is not None
            and (
                input_q.per_channel
                or output_q.per_channel
                or np.float32(input_q.scale) != np.float32(output_q.scale)
                or input_q.zero_point != output_q.zero_point
            )
        ):
            raise UnsupportedTensorError(
                f"{node.describe()}: input and output quantization differ ({input_q} vs {output_q})",
                hint=f"{node.op_type} works on the stored values: give the output the input's per-tensor scale "
                "and zero point",
            )
    if len(input_tensor.shape) != 4:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has rank {len(input_tensor.shape)}; "
            f"{node.op_type} takes NHWC (rank 4)",
            hint="reshape the input to [batch, height, width, channels]",
        )
    batch, height, width, depth = input_tensor.shape
    if height < 1 or width < 1:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has no rows or columns to resize from",
            hint="the input's height and width must be at least 1",
        )
    out_h, out_w = constant_size(graph, node)
    if tuple(output.shape) != (batch, out_h, out_w, depth):
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} is not [{batch}, {out_h}, {out_w}, {depth}] "
            "(the input's batch and channels, the size's height and width)",
            hint="the model is inconsistent",
        )
    attributes: ResizeAttributes = node.attributes if node.attributes is not None else ResizeAttributes()
    return ResizeGeometry(
        batch, height, width, depth, out_h, out_w, attributes.align_corners, attributes.half_pixel_centers
    )


def float32_scale(input_size: int, output_size: int, align_corners: bool) -> np.float32:
    """in / out in float32, or (in - 1) / (out - 1) with align_corners and out > 1."""
    if align_corners and output_size > 1:
        return np.float32(input_size - 1) / np.float32(output_size - 1)
    return np.float32(input_size) / np.float32(output_size)


def nearest_indices(input_size: int, output_size: int, align_corners: bool, half_pixel_centers: bool) -> Array:
    """The input index of each output index along one axis (TFLite's GetNearestNeighbor, in float32)."""
    f32 = np.float32
    scale = float32_scale(input_size, output_size, align_corners)
    offset = f32(0.5) if half_pixel_centers else f32(0.0)
    scaled = (np.arange(output_size, dtype=np.float32) + offset) * scale  # >= 0
    lower = np.floor(scaled)
    if align_corners:  # std::round: half away from zero (scaled - lower is exact)
        lower = lower + (scaled - lower >= f32(0.5))
    indices = np.minimum(lower.astype(np.int64), input_size - 1)
    return np.maximum(indices, 0) if half_pixel_centers else indices


def resize_nearest_neighbor(values: Array, geometry: ResizeGeometry) -> Array:
    g = geometry
    rows = nearest_indices(g.input_height, g.output_height, g.align_corners, g.half_pixel_centers)
    columns = nearest_indices(g.input_width, g.output_width, g.align_corners, g.half_pixel_centers)
    return values[:, rows][:, :, columns]


def resize_nearest_neighbor_reference(call: ReferenceCall) -> list[Array]:
    geometry = check_resize(call.graph, call.node, NEAREST_DTYPES)
    output = call.outputs[0]
    moved = resize_nearest_neighbor(np.asarray(call.value(0), dtype=output.dtype.numpy), geometry)
    return [np.ascontiguousarray(moved).reshape(output.shape)]
