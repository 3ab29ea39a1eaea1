# SPDX-License-Identifier: Apache-2.0
"""SPLIT's schema: (axis, input) -> num_splits equal parts of the input along the constant axis."""

from opbridge.ir import DType
from opbridge.ops.split.attributes import SPLIT_DTYPES, SplitAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import constant_input, normalize_axis


def schema_axis(ctx: InferenceContext, position: int, rank: int) -> int:
    """The constant one-value axis at input `position`, in [0, rank)."""
    values = constant_input(ctx, position, "axis").ravel()
    if values.size != 1:
        raise ctx.fail(f"the axis (input {position}) holds {values.size} values; it must hold one")
    return normalize_axis(ctx, int(values[0]), rank)


def infer_split(ctx: InferenceContext) -> list[TensorType]:
    """num_splits outputs, each the input with its axis size divided by num_splits."""
    info = ctx.input(1)
    attributes: SplitAttributes = ctx.attributes or SplitAttributes()
    count = attributes.num_splits
    if count < 1:
        raise ctx.fail(f"num_splits {count} must be at least 1")
    axis = schema_axis(ctx, 0, len(info.shape))
    size = info.shape[axis]
    if size != -1 and size % count:
        raise ctx.fail(f"an axis of size {size} does not split into {count} equal parts", hint="use SPLIT_V")
    part = list(info.shape)
    part[axis] = -1 if size == -1 else size // count
    return [TensorType(info.dtype, tuple(part)) for _ in range(count)]


SPLIT_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SPLIT",
    since_version=1,
    doc="The input cut into num_splits equal parts along a constant axis (negative: from the last). "
    "Elements are moved unchanged; every output keeps the input's quantization.",
    inputs=(
        FormalParameter("axis", "Taxis", "constant int32, one value in [-rank, rank)"),
        FormalParameter("input", "T", "the tensor to cut; its axis size is a multiple of num_splits"),
    ),
    outputs=(FormalParameter("outputs", "T", "num_splits equal parts, in order", ParameterOption.VARIADIC),),
    type_constraints=(
        TypeConstraint("T", SPLIT_DTYPES, "int8 or int16 (quantization kept), int32 or float32"),
        TypeConstraint("Taxis", (DType.INT32,), "the axis"),
    ),
    attributes_class=SplitAttributes,
    infer=infer_split,
)
