# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX's schema (ARG_MIN's is the same): an int8 or float32 tensor and a constant one-element axis to the
int32 or int64 index of its largest value along the axis, the axis dropped."""

from opbridge.ops.arg_max.attributes import ArgMinMaxAttributes
from opbridge.ops.arg_max.reference import AXIS_DTYPES, INPUT_DTYPES, OUTPUT_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import constant_input, normalize_axis


def infer_arg_min_max(ctx: InferenceContext) -> list[TensorType]:
    """The input's shape without the axis; the dtype is output_type (int32 or int64)."""
    info = ctx.input(0)
    rank = len(info.shape)
    values = constant_input(ctx, 1, "axis").ravel()
    if values.size != 1:
        raise ctx.fail(f"the axis (input 1) holds {values.size} values; it must hold one")
    axis = normalize_axis(ctx, int(values[0]), rank)
    a: ArgMinMaxAttributes = ctx.attributes
    if a.output_type not in OUTPUT_DTYPES:
        raise ctx.fail(f"output_type {a.output_type.value} is not int32 or int64")
    return [TensorType(a.output_type, tuple(size for dimension, size in enumerate(info.shape) if dimension != axis))]


def arg_min_max_schema(name: str, doc: str) -> OpSchema:
    return OpSchema(
        domain=BUILTIN_DOMAIN,
        name=name,
        since_version=1,
        doc=doc,
        inputs=(
            FormalParameter("input", "T", "int8 or float32 values, rank >= 1"),
            FormalParameter("axis", "Tind", "the axis: a constant int32 or int64 tensor of one element"),
        ),
        outputs=(FormalParameter("output", "Tout", "the indices: the input's shape without the axis"),),
        type_constraints=(
            TypeConstraint("T", INPUT_DTYPES, "int8 (stored values compared) or float32"),
            TypeConstraint("Tind", AXIS_DTYPES, "int32 or int64 axis"),
            TypeConstraint("Tout", OUTPUT_DTYPES, "int32 or int64 indices (output_type)"),
        ),
        attributes_class=ArgMinMaxAttributes,
        infer=infer_arg_min_max,
    )


ARG_MAX_SCHEMA = arg_min_max_schema(
    "ARG_MAX",
    "The index of the largest value along the axis (TFLite Micro's reference: the first of equal values; "
    "a NaN never wins, and a NaN first is never replaced).",
)
