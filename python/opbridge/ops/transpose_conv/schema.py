# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV's schema: the constant output shape, an OHWI filter, an NHWC input and an optional bias
(LiteRT's input order) -> the NHWC output the output shape names; float32 throughout."""

from opbridge.ir import DType
from opbridge.ops.transpose_conv.attributes import TransposeConvAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import constant_int_vector, element_count, require_rank


def infer_transpose_conv(ctx: InferenceContext) -> list[TensorType]:
    """The output shape input's values, checked against the filter and input as TFLite Micro's MatchingDim
    does: batches equal, the filter's depth the input's channels, its count the output's channels.

    TFLite Micro itself reads the output tensor's shape and ignores the output shape input; a model
    whose two disagree is refused here rather than run with either."""
    weights, info = ctx.input(1), ctx.input(2)
    require_rank(ctx, weights.shape, 4, "the filter (OHWI)")
    require_rank(ctx, info.shape, 4, "the input (NHWC)")
    a: TransposeConvAttributes = ctx.attributes
    if a.stride_height < 1 or a.stride_width < 1:
        raise ctx.fail(f"strides ({a.stride_height}, {a.stride_width}) must be positive")
    shape = constant_int_vector(ctx, 0, "output shape", length=4)
    if any(size < 1 for size in shape):
        raise ctx.fail(f"the output shape {shape} has a size below 1")
    batch, _, _, channels = info.shape
    out_channels, _, _, filter_channels = weights.shape
    if batch not in (-1, shape[0]):
        raise ctx.fail(f"the output shape {shape} has {shape[0]} batches, the input {batch}")
    if -1 not in (channels, filter_channels) and channels != filter_channels:
        raise ctx.fail(f"the input has {channels} channels, the filter {filter_channels}")
    if out_channels not in (-1, shape[3]):
        raise ctx.fail(f"the output shape {shape} has {shape[3]} channels, the filter {out_channels}")
    if ctx.has_input(3):
        count = element_count(ctx.input(3).shape)
        if count not in (shape[3], -1):
            raise ctx.fail(f"the bias has {count} values for {shape[3]} output channels", hint="one per channel")
    return [TensorType(info.dtype, tuple(shape))]


TRANSPOSE_CONV_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="TRANSPOSE_CONV",
    since_version=1,
    doc="Transposed 2-D convolution (the gradient of CONV_2D with respect to its input): each input "
    "element scatters input * filter over a window of the output, stride apart; plus bias, then the "
    "fused activation.",
    inputs=(
        FormalParameter(
            "output_shape", "TShape", "int32 [4], a constant: [batch, out_height, out_width, out_channels]"
        ),
        FormalParameter("filter", "T", "[out_channels, filter_height, filter_width, channels]"),
        FormalParameter("input", "T", "[batch, height, width, channels]"),
        FormalParameter("bias", "T", "[out_channels]", ParameterOption.OPTIONAL),
    ),
    outputs=(FormalParameter("output", "T", "[batch, out_height, out_width, out_channels]"),),
    type_constraints=(
        TypeConstraint("T", (DType.FLOAT32,), "float32 activations, filter and bias"),
        TypeConstraint("TShape", (DType.INT32,), "int32"),
    ),
    attributes_class=TransposeConvAttributes,
    infer=infer_transpose_conv,
)
