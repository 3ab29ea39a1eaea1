# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE's schema: a slice of a tensor by constant int32 begin, end and strides."""

from opbridge.ir import DType
from opbridge.ops.strided_slice.attributes import StridedSliceAttributes
from opbridge.ops.strided_slice.reference import STRIDED_SLICE_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import constant_int_vector


def _clamp(value: int, low: int, high: int) -> int:
    return min(max(value, low), high)


def infer_strided_slice(ctx: InferenceContext) -> list[TensorType]:
    """TFLite Micro's per-axis begin/end arithmetic (strided_slice/reference.py's compute_plan).

    Per axis of size n and stride s: begin and end count from the end when
    negative and are clamped to [0, n] (s > 0) or [-1, n - 1] (s < 0); a mask
    bit replaces them by the axis' first or last element; the axis takes
    len(range(begin, end, s)) elements, and a shrink_axis_mask axis is dropped.
    """
    info = ctx.input(0)
    a: StridedSliceAttributes = ctx.attributes
    for name, value in (
        ("ellipsis_mask", a.ellipsis_mask),
        ("new_axis_mask", a.new_axis_mask),
        ("offset", int(a.offset)),
    ):
        if value:
            raise ctx.fail(
                f"{name} {value} is not supported",
                hint="TFLite Micro ignores it (computing another slice than TFLite); re-export without it",
            )
    rank = len(info.shape)
    begins = constant_int_vector(ctx, 1, "begin", rank)
    ends = constant_int_vector(ctx, 2, "end", rank)
    strides = constant_int_vector(ctx, 3, "strides", rank)
    shape = []
    for axis, (size, begin, end, stride) in enumerate(zip(info.shape, begins, ends, strides, strict=True)):
        if stride == 0:
            raise ctx.fail(f"stride 0 on axis {axis}", hint="strides must be non-zero")
        shrink = bool(a.shrink_axis_mask >> axis & 1)
        if size == -1:
            if shrink:
                continue
            shape.append(-1)
            continue
        low, high = (0, size) if stride > 0 else (-1, size - 1)
        start = _clamp(begin + size if begin < 0 else begin, low, high)
        if a.begin_mask >> axis & 1:
            start = 0 if stride > 0 else size - 1
        if shrink:
            if stride < 0 or not 0 <= start < size:
                raise ctx.fail(
                    f"axis {axis} is shrunk to begin {begin} with stride {stride} (size {size}); "
                    "TFLite Micro writes no output for it",
                    hint="shrink an axis only to an index inside it, with a positive stride",
                )
            continue
        stop = _clamp(end + size if end < 0 else end, low, high)
        if a.end_mask >> axis & 1:
            stop = size if stride > 0 else -1
        shape.append(len(range(start, stop, stride)))
    return [TensorType(info.dtype, tuple(shape))]


STRIDED_SLICE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="STRIDED_SLICE",
    since_version=1,
    doc="Every stride-th element from begin towards end along each axis; masks as in TFLite "
    "(begin_mask, end_mask, shrink_axis_mask; not ellipsis_mask, new_axis_mask or offset).",
    inputs=(
        FormalParameter("input", "T", "the tensor to slice"),
        FormalParameter("begin", "Tind", "constant int32 [rank]: first index per axis"),
        FormalParameter("end", "Tind", "constant int32 [rank]: end index per axis (exclusive)"),
        FormalParameter("strides", "Tind", "constant int32 [rank]: non-zero step per axis"),
    ),
    outputs=(FormalParameter("output", "T", "the slice, without the shrunk axes"),),
    type_constraints=(
        TypeConstraint("T", STRIDED_SLICE_DTYPES, "bool, int8, int16, int32 or float32, the same for the output"),
        TypeConstraint("Tind", (DType.INT32,), "int32 indices"),
    ),
    attributes_class=StridedSliceAttributes,
    infer=infer_strided_slice,
)
