# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL's schema: [..., M, K] x [..., K, N] -> [..., M, N], ranks 2 to 5, broadcast batch dimensions."""

from opbridge.ops.batch_matmul.attributes import BatchMatMulAttributes
from opbridge.ops.batch_matmul.reference import BATCH_MATMUL_DTYPES, batch_matmul_shape
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_batch_matmul(ctx: InferenceContext) -> list[TensorType]:
    lhs, rhs = ctx.input(0), ctx.input(1)
    a: BatchMatMulAttributes = ctx.attributes or BatchMatMulAttributes()
    if -1 in lhs.shape or -1 in rhs.shape:
        raise ctx.fail("BATCH_MATMUL needs static shapes", hint="give the model's inputs fixed shapes")
    try:
        shape = batch_matmul_shape(tuple(lhs.shape), tuple(rhs.shape), a.adj_x, a.adj_y)
    except ValueError as error:
        raise ctx.fail(f"lhs {tuple(lhs.shape)}, rhs {tuple(rhs.shape)}: {error}") from None
    return [TensorType(lhs.dtype, shape)]


BATCH_MATMUL_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="BATCH_MATMUL",
    since_version=1,
    doc="Batched matrix product lhs x rhs; adj_x and adj_y read an operand transposed in its last two dimensions.",
    inputs=(
        FormalParameter("lhs", "T", "[..., M, K] ([..., K, M] with adj_x)"),
        FormalParameter("rhs", "T", "[..., K, N] ([..., N, K] with adj_y)"),
    ),
    outputs=(FormalParameter("output", "T", "[..., M, N]; int8 and int16 rescaled to the output's quantization"),),
    type_constraints=(TypeConstraint("T", BATCH_MATMUL_DTYPES, "float32, int8 (int32 sums) or int16 (int64 sums)"),),
    attributes_class=BatchMatMulAttributes,
    infer=infer_batch_matmul,
)
