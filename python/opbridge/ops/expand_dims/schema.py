# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS's schema: the input with a size-1 dimension inserted at the constant axis its second input holds."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_expand_dims(ctx: InferenceContext) -> list[TensorType]:
    """The input's shape with a 1 inserted before dimension `axis` (-1 appends; TFLite's range is [-rank-1, rank])."""
    info = ctx.input(0)
    axis_input = ctx.input(1)
    if axis_input.value is None:
        raise ctx.fail(
            "the axis input is computed at run time; opbridge needs it constant to know the output's shape",
            hint="export the model with a constant axis (TensorFlow's converter writes one for Conv1D)",
        )
    if axis_input.value.size != 1:
        raise ctx.fail(f"the axis input holds {axis_input.value.size} values; EXPAND_DIMS takes one axis")
    rank = len(info.shape)
    axis = int(axis_input.value.ravel()[0])
    if not -rank - 1 <= axis <= rank:
        raise ctx.fail(f"axis {axis} is outside [{-rank - 1}, {rank}] for an input of rank {rank}")
    if axis < 0:
        axis += rank + 1
    return [TensorType(info.dtype, (*info.shape[:axis], 1, *info.shape[axis:]))]


EXPAND_DIMS_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="EXPAND_DIMS",
    since_version=1,
    doc="The input's values under its shape with a size-1 dimension inserted at `axis`.",
    inputs=(
        FormalParameter("input", "T", "any tensor"),
        FormalParameter("axis", "TAxis", "a constant int32 scalar (or one-element vector): where the 1 goes"),
    ),
    outputs=(FormalParameter("output", "T", "the input's values, one more dimension of size 1"),),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.INT16, DType.FLOAT32), "TFLite Micro's: int8, int16 or float32"),
        TypeConstraint("TAxis", (DType.INT32,), "int32 (TFLite Micro takes no other axis type)"),
    ),
    infer=infer_expand_dims,
)
