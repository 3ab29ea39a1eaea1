# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION's schema: int8 or float32 of rank 1 to 4, normalized along the last axis, same shape out."""

from opbridge.ops.l2_normalization.attributes import L2NormalizationAttributes
from opbridge.ops.l2_normalization.reference import L2_NORMALIZATION_DTYPES, MAX_RANK
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_l2_normalization(ctx: InferenceContext) -> list[TensorType]:
    info = ctx.input(0)
    if not 1 <= len(info.shape) <= MAX_RANK:
        raise ctx.fail(f"the input has rank {len(info.shape)}", hint=f"TFLite Micro takes ranks 1 to {MAX_RANK}")
    return [TensorType(info.dtype, tuple(info.shape))]


L2_NORMALIZATION_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="L2_NORMALIZATION",
    since_version=1,
    doc="x / max(||x||, 1e-6) along the last axis; int8 writes units of 1/128 (TFLite's fixed output scale).",
    inputs=(FormalParameter("input", "T", "int8 or float32 values, rank 1 to 4"),),
    outputs=(FormalParameter("output", "T", "the input normalized along its last axis"),),
    type_constraints=(
        TypeConstraint("T", L2_NORMALIZATION_DTYPES, "int8 (output scale 1/128, zero point 0) or float32"),
    ),
    attributes_class=L2NormalizationAttributes,
    infer=infer_l2_normalization,
)
