# SPDX-License-Identifier: Apache-2.0
"""SVDF's schema: input [batch, input_size], weights_feature [num_filters, input_size], weights_time
[num_filters, memory_size], optional bias [num_units], activation_state [batch, memory_size * num_filters]
(a variable tensor) -> output [batch, num_units], num_units = num_filters / rank.

float32 throughout, or int8 input, weights_feature and output with int16 (or int8) weights_time and
state and an int32 bias.
"""

from opbridge.ir import DType
from opbridge.ops.svdf.attributes import SvdfAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import require_rank


def infer_svdf(ctx: InferenceContext) -> list[TensorType]:
    a: SvdfAttributes = ctx.attributes
    info, feature, time, state = ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(4)
    require_rank(ctx, info.shape, 2, "the input ([batch, input_size])")
    require_rank(ctx, feature.shape, 2, "weights_feature ([num_filters, input_size])")
    require_rank(ctx, time.shape, 2, "weights_time ([num_filters, memory_size])")
    require_rank(ctx, state.shape, 2, "the activation state ([batch, memory_size * num_filters])")
    batch, input_size = info.shape
    num_filters, memory_size = time.shape
    if feature.shape != (num_filters, input_size):
        raise ctx.fail(
            f"weights_feature has shape {list(feature.shape)}, expected [{num_filters}, {input_size}] "
            "(num_filters of weights_time, input_size of the input)"
        )
    if a.rank < 1 or num_filters % a.rank:
        raise ctx.fail(
            f"{num_filters} filters are not a multiple of the rank {a.rank}", hint="num_filters = rank * units"
        )
    units = num_filters // a.rank
    if state.shape != (batch, memory_size * num_filters):
        raise ctx.fail(
            f"the activation state has shape {list(state.shape)}, expected [{batch}, {memory_size * num_filters}]"
        )
    if ctx.has_input(3) and ctx.input(3).shape not in ((units,), (-1,)):
        raise ctx.fail(f"the bias has shape {list(ctx.input(3).shape)}, expected [{units}]")
    float32 = info.dtype is DType.FLOAT32
    if float32 != (time.dtype is DType.FLOAT32) or float32 != (state.dtype is DType.FLOAT32):
        raise ctx.fail(
            f"a {info.dtype.value} input with {time.dtype.value} weights_time and a {state.dtype.value} state",
            hint="float32 throughout, or int8 with int16 (or int8) weights_time and state",
        )
    if ctx.has_input(3) and ctx.input(3).dtype is not (DType.FLOAT32 if float32 else DType.INT32):
        raise ctx.fail(f"the bias is {ctx.input(3).dtype.value} for a {info.dtype.value} input")
    return [TensorType(info.dtype, (batch, units))]


SVDF_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SVDF",
    since_version=1,
    doc="A rank-decomposed fully connected layer over time; the state keeps the last memory_size feature columns.",
    inputs=(
        FormalParameter("input", "T", "[batch, input_size]"),
        FormalParameter("weights_feature", "T", "[num_filters, input_size]"),
        FormalParameter("weights_time", "TState", "[num_filters, memory_size]"),
        FormalParameter("bias", "TBias", "[num_units]", ParameterOption.OPTIONAL),
        FormalParameter("activation_state", "TState", "[batch, memory_size * num_filters], a variable tensor"),
    ),
    outputs=(FormalParameter("output", "T", "[batch, num_units]"),),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.FLOAT32), "int8 or float32 input, weights_feature and output"),
        TypeConstraint("TState", (DType.INT16, DType.INT8, DType.FLOAT32), "time weights and activation state"),
        TypeConstraint("TBias", (DType.INT32, DType.FLOAT32), "int32 bias for int8, float32 for float32"),
    ),
    attributes_class=SvdfAttributes,
    infer=infer_svdf,
)
