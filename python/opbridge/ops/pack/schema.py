# SPDX-License-Identifier: Apache-2.0
"""PACK's schema: values_count tensors of one shape stacked along a new axis."""

from opbridge.ops.pack.attributes import PACK_DTYPES, PackAttributes
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


def infer_pack(ctx: InferenceContext) -> list[TensorType]:
    """The inputs' shape with values_count inserted at axis (of the output's rank)."""
    infos = [ctx.input(position) for position in range(len(ctx.inputs))]
    attributes: PackAttributes = ctx.attributes or PackAttributes()
    if attributes.values_count != len(infos):
        raise ctx.fail(f"values_count {attributes.values_count} for {len(infos)} inputs")
    first = infos[0].shape
    for position, info in enumerate(infos):
        if len(info.shape) != len(first) or any(
            x != y and -1 not in (x, y) for x, y in zip(info.shape, first, strict=True)
        ):
            raise ctx.fail(f"input {position} has shape {list(info.shape)}, input 0 {list(first)}; they must be equal")
    axis = normalize_axis(ctx, attributes.axis, len(first) + 1)
    shape = tuple(max(info.shape[d] for info in infos) for d in range(len(first)))
    return [TensorType(infos[0].dtype, (*shape[:axis], len(infos), *shape[axis:]))]


PACK_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="PACK",
    since_version=1,
    doc="values_count tensors of one shape stacked along a new axis of the output (negative: from the last). "
    "Elements are moved unchanged; every input has the output's quantization.",
    inputs=(FormalParameter("values", "T", "values_count tensors of one shape", ParameterOption.VARIADIC),),
    outputs=(FormalParameter("output", "T", "the inputs stacked: rank + 1 dimensions"),),
    type_constraints=(
        TypeConstraint("T", PACK_DTYPES, "int8 or int16 (quantization shared), int32, int64 or float32"),
    ),
    attributes_class=PackAttributes,
    infer=infer_pack,
)
