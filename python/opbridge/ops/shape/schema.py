# SPDX-License-Identifier: Apache-2.0
"""SHAPE's schema: any tensor to the vector of its dimensions' sizes (int32 or int64, the out_type attribute)."""

from opbridge.ir import DType
from opbridge.ops.shape.attributes import ShapeAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import ANY_TYPE, FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_shape(ctx: InferenceContext) -> list[TensorType]:
    """A vector as long as the input's rank, of the out_type attribute's type."""
    attributes = ctx.attributes if ctx.attributes is not None else ShapeAttributes()
    return [TensorType(attributes.out_type, (len(ctx.input(0).shape),))]


SHAPE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SHAPE",
    since_version=1,
    doc="The sizes of the input's dimensions, as a vector.",
    inputs=(FormalParameter("input", "T", "any tensor (only its shape is read)"),),
    outputs=(FormalParameter("output", "TOut", "its shape: one size per dimension"),),
    type_constraints=(
        TypeConstraint("T", ANY_TYPE, "any type"),
        TypeConstraint("TOut", (DType.INT32, DType.INT64), "int32 or int64"),
    ),
    infer=infer_shape,
    attributes_class=ShapeAttributes,
)
