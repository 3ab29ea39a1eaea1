# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V's schema: (input, size_splits, axis) -> parts of the given sizes along the constant axis."""

from opbridge.ir import DType
from opbridge.ops.split.schema import schema_axis
from opbridge.ops.split_v.attributes import SIZE_SPLITS_DTYPES, SPLIT_V_DTYPES, SplitVAttributes
from opbridge.ops.split_v.reference import resolve_sizes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import constant_int_vector


def infer_split_v(ctx: InferenceContext) -> list[TensorType]:
    """One output per size: the input with its axis size replaced by the size (-1: the rest)."""
    info = ctx.input(0)
    attributes: SplitVAttributes = ctx.attributes or SplitVAttributes()
    sizes = constant_int_vector(ctx, 1, "size_splits")
    if len(sizes) != attributes.num_splits:
        raise ctx.fail(f"size_splits {sizes} holds {len(sizes)} sizes; num_splits is {attributes.num_splits}")
    axis = schema_axis(ctx, 2, len(info.shape))
    total = info.shape[axis]
    if total == -1:
        resolved = sizes  # known at run time only: a -1 stays unknown
    else:
        checked = resolve_sizes(sizes, total)
        if isinstance(checked, str):
            raise ctx.fail(checked)
        resolved = checked
    outputs = []
    for size in resolved:
        shape = list(info.shape)
        shape[axis] = size
        outputs.append(TensorType(info.dtype, tuple(shape)))
    return outputs


SPLIT_V_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SPLIT_V",
    since_version=1,
    doc="The input cut into parts of the sizes size_splits gives (one may be -1: the rest) along a constant "
    "axis (negative: from the last). Elements are moved unchanged; every output keeps the input's quantization.",
    inputs=(
        FormalParameter("input", "T", "the tensor to cut"),
        FormalParameter("size_splits", "Tsizes", "constant [num_splits]: each part's size along axis, or one -1"),
        FormalParameter("axis", "Taxis", "constant int32, one value in [-rank, rank)"),
    ),
    outputs=(FormalParameter("outputs", "T", "num_splits parts, in order", ParameterOption.VARIADIC),),
    type_constraints=(
        TypeConstraint("T", SPLIT_V_DTYPES, "int8 or int16 (quantization kept), int32 or float32"),
        TypeConstraint("Tsizes", SIZE_SPLITS_DTYPES, "the part sizes"),
        TypeConstraint("Taxis", (DType.INT32,), "the axis"),
    ),
    attributes_class=SplitVAttributes,
    infer=infer_split_v,
)
