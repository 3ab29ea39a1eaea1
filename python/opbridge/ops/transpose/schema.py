# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE's schema: a tensor of any element type with its axes permuted by a constant int32 perm."""

from opbridge.ir import DType
from opbridge.ops.transpose.reference import TRANSPOSE_DTYPES, is_permutation
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import constant_int_vector


def infer_transpose(ctx: InferenceContext) -> list[TensorType]:
    """output.shape[i] = input.shape[perm[i]]; perm lists each input axis once."""
    info = ctx.input(0)
    rank = len(info.shape)
    perm = constant_int_vector(ctx, 1, "perm", rank)
    if not is_permutation(perm, rank):
        raise ctx.fail(
            f"perm {perm} is not a permutation of the input's {rank} axes",
            hint=f"list each of 0 .. {rank - 1} once",
        )
    return [TensorType(info.dtype, tuple(info.shape[axis] for axis in perm))]


TRANSPOSE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="TRANSPOSE",
    since_version=1,
    doc="Permutes the axes: output axis i is input axis perm[i]. Elements are moved unchanged.",
    inputs=(
        FormalParameter("input", "T", "the tensor to transpose"),
        FormalParameter("perm", "Tperm", "constant int32 [rank]: a permutation of 0 .. rank - 1"),
    ),
    outputs=(FormalParameter("output", "T", "the input with its axes permuted"),),
    type_constraints=(
        TypeConstraint("T", TRANSPOSE_DTYPES, "any element type the C backend has, the same for the output"),
        TypeConstraint("Tperm", (DType.INT32,), "int32 axes"),
    ),
    infer=infer_transpose,
)
