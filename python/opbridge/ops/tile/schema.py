# SPDX-License-Identifier: Apache-2.0
"""TILE's schema: a tensor repeated along each axis by a constant int32 or int64 multiples."""

from opbridge.ops.tile.reference import MULTIPLES_DTYPES, TILE_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import constant_int_vector


def infer_tile(ctx: InferenceContext) -> list[TensorType]:
    """output.shape[d] = input.shape[d] * multiples[d]; multiples holds one entry >= 0 per input axis."""
    info = ctx.input(0)
    multiples = constant_int_vector(ctx, 1, "multiples", len(info.shape))
    if any(m < 0 for m in multiples):
        raise ctx.fail(f"multiples {multiples} has a negative entry", hint="repeat counts must be >= 0")
    shape = tuple(-1 if size == -1 else size * m for size, m in zip(info.shape, multiples, strict=True))
    return [TensorType(info.dtype, shape)]


TILE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="TILE",
    since_version=1,
    doc="Repeats the input multiples[d] times along each axis d. Elements are moved unchanged.",
    inputs=(
        FormalParameter("input", "T", "the tensor to repeat"),
        FormalParameter("multiples", "Tmultiples", "constant [rank]: the repeat count of each axis, >= 0"),
    ),
    outputs=(FormalParameter("output", "T", "the input tiled: shape input.shape * multiples"),),
    type_constraints=(
        TypeConstraint("T", TILE_DTYPES, "int8 (quantization kept), int32 or float32, the same for the output"),
        TypeConstraint("Tmultiples", MULTIPLES_DTYPES, "int32 or int64 repeat counts"),
    ),
    infer=infer_tile,
)
