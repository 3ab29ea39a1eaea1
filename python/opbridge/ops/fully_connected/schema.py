# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED's schema: input, [units, depth] filter, optional bias -> output.

int8 activations and filter with an int32 bias; int16 activations (TFLite's 16x8 quantization) with an
int8 filter and an int64 or int32 bias; or float32 throughout.
"""

from opbridge.ir import DType
from opbridge.ops.conv_2d.schema import check_bias
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import element_count, require_rank

# The filter type of each activation type (TFLite Micro's: int16 activations take int8 weights).
FILTER_DTYPES = {DType.INT8: DType.INT8, DType.INT16: DType.INT8, DType.FLOAT32: DType.FLOAT32}
# The bias types of int16 activations: int64 (the converter's default) or int32 (quantized_bias_type).
INT16_BIAS_DTYPES = (DType.INT64, DType.INT32)


def check_operand_types(ctx: InferenceContext) -> None:
    """The filter's type matches the activations' (int8 for int8 and int16), and an int16 node's bias is int64
    or int32 (check_bias checks the others)."""
    activations, weights = ctx.input(0).dtype, ctx.input(1).dtype
    expected = FILTER_DTYPES.get(activations, activations)
    if weights is not expected:
        raise ctx.fail(
            f"the filter is {weights.value} for {activations.value} activations",
            hint=f"give {activations.value} activations a {expected.value} filter",
        )
    if activations is DType.INT16 and ctx.has_input(2) and ctx.input(2).dtype not in INT16_BIAS_DTYPES:
        raise ctx.fail(
            f"the bias is {ctx.input(2).dtype.value} for int16 activations",
            hint="give int16 activations an int64 bias (or int32, TFLite's quantized_bias_type)",
        )


def infer_fully_connected(ctx: InferenceContext) -> list[TensorType]:
    """TFLite's rule: the input is read as rows of `depth` values.

    keep_num_dims: the input's shape with the last dimension (which must be
    depth) replaced by units; otherwise [elements / depth, units].
    """
    info, weights = ctx.input(0), ctx.input(1)
    require_rank(ctx, weights.shape, 2, "the filter ([units, depth])")
    units, depth = weights.shape
    check_operand_types(ctx)
    check_bias(ctx, units)
    a: FullyConnectedAttributes = ctx.attributes
    if a.keep_num_dims:
        if not info.shape or info.shape[-1] not in (depth, -1):
            raise ctx.fail(
                f"with keep_num_dims the input's last dimension must be the filter's depth {depth}; "
                f"the input has shape {list(info.shape)}"
            )
        return [TensorType(info.dtype, (*info.shape[:-1], units))]
    count = element_count(info.shape)
    if count == -1:
        return [TensorType(info.dtype, (-1, units))]
    if depth < 1 or count % depth:
        raise ctx.fail(
            f"the input has {count} values, not a whole number of rows of the filter's depth {depth}",
            hint="the input's size must be batch * depth",
        )
    return [TensorType(info.dtype, (count // depth, units))]


FULLY_CONNECTED_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="FULLY_CONNECTED",
    since_version=1,
    doc="output = input x filter^T + bias, the input read as rows of the filter's depth.",
    inputs=(
        FormalParameter("input", "T", "any shape whose size is a multiple of depth"),
        FormalParameter("filter", "TFilter", "[units, depth] (int8: per-tensor or per-channel scales)"),
        FormalParameter(
            "bias",
            "TBias",
            "[units]: int32 for int8, int64 or int32 for int16, float32 for float32",
            ParameterOption.OPTIONAL,
        ),
    ),
    outputs=(FormalParameter("output", "T", "[batch, units], or the input's shape ending in units"),),
    type_constraints=(
        TypeConstraint(
            "T", (DType.INT8, DType.INT16, DType.FLOAT32), "quantized int8 or int16 (16x8), or float32, activations"
        ),
        TypeConstraint("TFilter", (DType.INT8, DType.FLOAT32), "int8 (for int8 and int16 activations) or float32"),
        TypeConstraint(
            "TBias",
            (DType.INT32, DType.INT64, DType.FLOAT32),
            "int32 or int64 bias (scale input_scale * filter_scale) or float32 bias",
        ),
    ),
    attributes_class=FullyConnectedAttributes,
    infer=infer_fully_connected,
)
