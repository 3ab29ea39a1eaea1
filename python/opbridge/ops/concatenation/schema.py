# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION's schema: one or more tensors of one dtype joined along `axis`."""

from opbridge.ops.concatenation.attributes import CONCATENATION_DTYPES, ConcatenationAttributes
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


def infer_concatenation(ctx: InferenceContext) -> list[TensorType]:
    """Every input has the first's rank and sizes except along axis; the output's axis is their sum."""
    infos = [ctx.input(position) for position in range(len(ctx.inputs))]
    first = infos[0].shape
    a: ConcatenationAttributes = ctx.attributes
    axis = normalize_axis(ctx, a.axis, len(first))
    total = 0
    for position, info in enumerate(infos):
        if len(info.shape) != len(first) or any(
            x != y and -1 not in (x, y)
            for dimension, (x, y) in enumerate(zip(info.shape, first, strict=True))
            if dimension != axis
        ):
            raise ctx.fail(
                f"input {position} has shape {list(info.shape)}, input 0 {list(first)}; "
                f"they may differ only along axis {axis}",
            )
        size = info.shape[axis]
        total = -1 if -1 in (total, size) else total + size
    shape = tuple(
        total if dimension == axis else max(info.shape[dimension] for info in infos) for dimension in range(len(first))
    )
    return [TensorType(infos[0].dtype, shape)]


CONCATENATION_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="CONCATENATION",
    since_version=1,
    doc="The inputs joined along axis (negative: from the last); int8 inputs share the output's quantization.",
    inputs=(FormalParameter("inputs", "T", "one or more tensors, equal except along axis", ParameterOption.VARIADIC),),
    outputs=(FormalParameter("output", "T", "the inputs side by side along axis"),),
    type_constraints=(TypeConstraint("T", CONCATENATION_DTYPES, "one type for every input and the output"),),
    attributes_class=ConcatenationAttributes,
    infer=infer_concatenation,
)
