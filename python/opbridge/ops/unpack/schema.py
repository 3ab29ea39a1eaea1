# SPDX-License-Identifier: Apache-2.0
"""UNPACK's schema: the input's `num` slices along an axis, the axis removed."""

from opbridge.ops.unpack.attributes import UNPACK_DTYPES, UnpackAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import normalize_axis


def infer_unpack(ctx: InferenceContext) -> list[TensorType]:
    """num outputs, each the input's shape without axis; num is the input's size along it."""
    info = ctx.input(0)
    attributes: UnpackAttributes = ctx.attributes or UnpackAttributes()
    axis = normalize_axis(ctx, attributes.axis, len(info.shape))
    size = info.shape[axis]
    if attributes.num < 1 or size not in (-1, attributes.num):
        raise ctx.fail(f"num {attributes.num} for an input of size {size} along axis {axis}")
    shape = tuple(info.shape[:axis]) + tuple(info.shape[axis + 1 :])
    return [TensorType(info.dtype, shape) for _ in range(attributes.num)]


UNPACK_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="UNPACK",
    since_version=1,
    doc="The input taken apart along axis (negative: from the last) into its num slices, the axis removed. "
    "Elements are moved unchanged; every output keeps the input's quantization.",
    inputs=(FormalParameter("input", "T", "the tensor to take apart, rank >= 1"),),
    outputs=(FormalParameter("outputs", "T", "num slices, in order", ParameterOption.VARIADIC),),
    type_constraints=(TypeConstraint("T", UNPACK_DTYPES, "int8 or int16 (quantization kept), int32 or float32"),),
    attributes_class=UnpackAttributes,
    infer=infer_unpack,
)
