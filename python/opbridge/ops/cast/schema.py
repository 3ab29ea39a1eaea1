# SPDX-License-Identifier: Apache-2.0
"""CAST's schema: bool, int8, int16, int32 or uint32 to int8, int16, int32, uint32 or float32, same shape."""

from opbridge.ops.cast.attributes import CastAttributes
from opbridge.ops.cast.reference import CAST_INPUT_DTYPES, CAST_OUTPUT_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_cast(ctx: InferenceContext) -> list[TensorType]:
    # The target type cannot come from the input; it is the attribute, which the
    # LiteRT parser copies from the model's output tensor (see CastAttributes).
    return [TensorType(ctx.attributes.out_data_type, ctx.input(0).shape)]


CAST_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="CAST",
    since_version=1,
    doc="Each element converted to out_data_type as C's static_cast does: integers wrap around, "
    "float32 rounds to nearest, bools read as 0 or 1.",
    inputs=(FormalParameter("input", "T1", "the values to convert"),),
    outputs=(FormalParameter("output", "T2", "the converted values, of the input's shape"),),
    type_constraints=(
        # TFLite Micro also casts from float32; a float outside the target's range has no defined result there.
        TypeConstraint("T1", CAST_INPUT_DTYPES, "bool, int8, int16, int32 or uint32 (not float32)"),
        TypeConstraint("T2", CAST_OUTPUT_DTYPES, "int8, int16, int32, uint32 or float32"),
    ),
    attributes_class=CastAttributes,
    infer=infer_cast,
)
