# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE's schema: the input without the size-1 dimensions its squeeze_dims name (or all of them)."""

from opbridge.ops.squeeze.attributes import SqueezeAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import ANY_TYPE, FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_squeeze(ctx: InferenceContext) -> list[TensorType]:
    """The input's shape without the squeeze_dims (each of size 1), or without every size-1 dimension."""
    info = ctx.input(0)
    rank = len(info.shape)
    dims = ctx.attributes.squeeze_dims if ctx.attributes is not None else ()
    if not dims:
        return [TensorType(info.dtype, tuple(size for size in info.shape if size != 1))]
    dropped = set()
    for dim in dims:
        axis = dim + rank if dim < 0 else dim
        if not 0 <= axis < rank:
            raise ctx.fail(f"squeeze_dims {list(dims)}: {dim} is outside rank {rank}")
        if info.shape[axis] not in (1, -1):
            raise ctx.fail(f"squeeze_dims {list(dims)}: dimension {dim} has size {info.shape[axis]}, not 1")
        dropped.add(axis)
    return [TensorType(info.dtype, tuple(size for axis, size in enumerate(info.shape) if axis not in dropped))]


SQUEEZE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SQUEEZE",
    since_version=1,
    doc="The input's values under its shape without the size-1 dimensions squeeze_dims names (all if empty).",
    inputs=(FormalParameter("input", "T", "any tensor"),),
    outputs=(FormalParameter("output", "T", "the input's values, its size-1 dimensions dropped"),),
    type_constraints=(TypeConstraint("T", ANY_TYPE, "any type (the bytes are copied or aliased)"),),
    infer=infer_squeeze,
    attributes_class=SqueezeAttributes,
)
