# SPDX-License-Identifier: Apache-2.0
"""GATHER's schema: input slices along one axis picked by int32 or int64 positions (batch_dims 0)."""

from opbridge.ops.gather.attributes import GatherAttributes
from opbridge.ops.gather.reference import GATHER_DTYPES, POSITION_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import normalize_axis


def infer_gather(ctx: InferenceContext) -> list[TensorType]:
    """output.shape = input.shape[:axis] + positions.shape + input.shape[axis + 1:]."""
    info, positions = ctx.input(0), ctx.input(1)
    attributes: GatherAttributes = ctx.attributes or GatherAttributes()
    if attributes.batch_dims != 0:
        raise ctx.fail(f"batch_dims {attributes.batch_dims} is not supported (only 0)")
    if not info.shape:
        raise ctx.fail("the input is a scalar; GATHER needs at least one axis")
    axis = normalize_axis(ctx, attributes.axis, len(info.shape))
    shape = tuple(info.shape[:axis]) + tuple(positions.shape) + tuple(info.shape[axis + 1 :])
    return [TensorType(info.dtype, shape)]


GATHER_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="GATHER",
    since_version=1,
    doc="Slices of the input along `axis` picked by positions (each in [0, input.shape[axis]), "
    "else a run-time error); batch_dims 0 only. Elements are moved unchanged.",
    inputs=(
        FormalParameter("input", "T", "the tensor to gather from, rank >= 1"),
        FormalParameter("positions", "Tpositions", "indices along axis: a graph input or a constant"),
    ),
    outputs=(FormalParameter("output", "T", "input.shape[:axis] + positions.shape + input.shape[axis + 1:]"),),
    type_constraints=(
        TypeConstraint("T", GATHER_DTYPES, "int8 (quantization kept), int32 or float32, the same for the output"),
        TypeConstraint("Tpositions", POSITION_DTYPES, "int32 or int64 positions"),
    ),
    attributes_class=GatherAttributes,
    infer=infer_gather,
)
