# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's RESIZE_BILINEAR (reference_ops::ResizeBilinear for float32, ResizeBilinearInteger for int8).

Per axis the source position is i * scale, or (i + 0.5) * scale - 0.5 with
half_pixel_centers, scale = in / out (align_corners and out > 1: (in - 1) /
(out - 1)); its neighbours are max(floor, 0) and min(ceil, in - 1).
float32 computes all this in float32 and sums the four weighted neighbours
in TFLite's order, then adds 0.0f (turning -0.0 into +0.0). int8 works in
1/1024ths: scale_10 = ((in << 10) + out / 2) / out, the position
i * scale_10 (+ scale_10 / 2 - 512), the sum of value * weight_y * weight_x
rounded half away from zero by 2^20 (TFLite's default, not
TFLITE_SINGLE_ROUNDING). TFLite Micro refuses align_corners with
half_pixel_centers; int8 sizes whose last lower index passes the input's
end (TFLite reads out of bounds) are refused here, naming the node.
"""

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.resize_nearest_neighbor.reference import ResizeGeometry, check_resize, float32_scale

BILINEAR_DTYPES = (DType.INT8, DType.FLOAT32)
ONE_10 = 1 << 10
# Sizes up to 2^20 keep the int8 path's positions (about size << 10) within int32 (OPBRIDGE_RESIZE_MAX_SIZE).
MAX_SIZE = 1 << 20


def check_bilinear(graph: Graph, node: Node) -> ResizeGeometry:
    g = check_resize(graph, node, BILINEAR_DTYPES)
    if g.align_corners and g.half_pixel_centers:
        raise UnsupportedOperatorError(
            f"{node.describe()}: align_corners and half_pixel_centers are both set",
            hint="TFLite Micro's RESIZE_BILINEAR refuses half_pixel_centers with align_corners: clear one",
        )
    if graph.tensor(node.inputs[0]).dtype is DType.INT8:
        if max(g.input_height, g.input_width, g.output_height, g.output_width) > MAX_SIZE:
            raise UnsupportedTensorError(
                f"{node.describe()}: sizes above {MAX_SIZE} overflow the int8 kernel's fixed-point positions",
                hint="resize in steps",
            )
        for name, size_in, size_out in (
            ("height", g.input_height, g.output_height),
            ("width", g.input_width, g.output_width),
        ):
            lower, _, _ = positions_10(size_in, size_out, g.align_corners, g.half_pixel_centers)
            if lower[-1] > size_in - 1:
                raise UnsupportedTensorError(
                    f"{node.describe()}: resizing the {name} from {size_in} to {size_out} puts TFLite's rounded "
                    f"fixed-point scale past the input (source row or column {int(lower[-1])})",
                    hint="TFLite Micro reads out of bounds here; choose another output size",
                )
    return g


def positions(size_in: int, size_out: int, align_corners: bool, half_pixel_centers: bool) -> tuple[Array, ...]:
    """float32: (lower index, upper index, position minus lower index) per output index."""
    f32 = np.float32
    scale = float32_scale(size_in, size_out, align_corners)
    index = np.arange(size_out, dtype=np.float32)
    position = (index + f32(0.5)) * scale - f32(0.5) if half_pixel_centers else index * scale
    lower = np.maximum(np.floor(position).astype(np.int64), 0)
    upper = np.minimum(np.ceil(position).astype(np.int64), size_in - 1)
    return lower, upper, position - lower.astype(np.float32)


def positions_10(size_in: int, size_out: int, align_corners: bool, half_pixel_centers: bool) -> tuple[Array, ...]:
    """int8: (lower index, upper index, position minus lower index in 1/1024ths) per output index."""
    if align_corners and size_out > 1:
        scale = (ONE_10 * (size_in - 1) + (size_out - 1) // 2) // (size_out - 1)
    else:
        scale = (ONE_10 * size_in + size_out // 2) // size_out
    index = np.arange(size_out, dtype=np.int64)
    position = index * scale + scale // 2 - ONE_10 // 2 if half_pixel_centers else index * scale
    # C++ divides towards zero; positions >= -512 make both that and the floor clamp to 0 here.
    lower = np.maximum(position // ONE_10, 0)
    upper = np.minimum((position + ONE_10 - 1) // ONE_10, size_in - 1)
    return lower, upper, position - ONE_10 * lower


def corners(values: Array, rows: tuple[Array, Array], columns: tuple[Array, Array]) -> list[Array]:
    """The four neighbours: (lower, lower), (upper, lower), (lower, upper), (upper, upper) as (row, column)."""
    (y0, y1), (x0, x1) = rows, columns
    return [values[:, y][:, :, x] for y, x in ((y0, x0), (y1, x0), (y0, x1), (y1, x1))]


def resize_bilinear_float(values: Array, g: ResizeGeometry) -> Array:
    y0, y1, dy = positions(g.input_height, g.output_height, g.align_corners, g.half_pixel_centers)
    x0, x1, dx = positions(g.input_width, g.output_width, g.align_corners, g.half_pixel_centers)
    one = np.float32(1.0)
    dy, dx = dy.reshape(1, -1, 1, 1), dx.reshape(1, -1, 1)
    ky, kx = one - dy, one - dx
    p00, p10, p01, p11 = corners(values.astype(np.float32), (y0, y1), (x0, x1))
    # TFLite's order: ((p00 ky kx + p10 dy kx) + p01 ky dx) + p11 dy dx, then + 0.0f (inf and NaN as in C).
    with np.errstate(over="ignore", invalid="ignore"):
        total = p00 * ky * kx + p10 * dy * kx + p01 * ky * dx + p11 * dy * dx
        return total + np.float32(0.0)


def resize_bilinear_int8(values: Array, g: ResizeGeometry) -> Array:
    y0, y1, dy = positions_10(g.input_height, g.output_height, g.align_corners, g.half_pixel_centers)
    x0, x1, dx = positions_10(g.input_width, g.output_width, g.align_corners, g.half_pixel_centers)
    dy, dx = dy.reshape(1, -1, 1, 1), dx.reshape(1, -1, 1)
    ky, kx = ONE_10 - dy, ONE_10 - dx
    p00, p10, p01, p11 = corners(values.astype(np.int64), (y0, y1), (x0, x1))
    total = p00 * ky * kx + p10 * dy * kx + p01 * ky * dx + p11 * dy * dx
    half = 1 << 19
    # (total +- 2^19) / 2^20, the division towards zero: half away from zero.
    rounded = np.where(total > 0, (total + half) >> 20, -((half - total) >> 20))
    return rounded.astype(np.int8)


def resize_bilinear_reference(call: ReferenceCall) -> list[Array]:
    geometry = check_bilinear(call.graph, call.node)
    output = call.outputs[0]
    values = np.asarray(call.value(0), dtype=output.dtype.numpy)
    if output.dtype is DType.FLOAT32:
        resized = resize_bilinear_float(values, geometry)
    else:
        resized = resize_bilinear_int8(values, geometry)
    return [np.ascontiguousarray(resized, dtype=output.dtype.numpy).reshape(output.shape)]
