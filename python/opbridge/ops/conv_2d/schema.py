# SPDX-License-Identifier: Apache-2.0
"""CONV_2D's schema: NHWC input, OHWI filter, optional bias -> NHWC output.

int8 activations and filter with an int32 bias, or float32 throughout.
"""

from typing import Any

from opbridge.ir import DType
from opbridge.ir.attribute_types import axis_padding
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
)
from opbridge.schemas.shapes import element_count, require_rank, window_2d

# What CONV_2D and DEPTHWISE_CONV_2D declare alike: the optional bias, the output, the type constraints.
CONVOLUTION_BIAS = FormalParameter(
    "bias", "TBias", "[out_channels]: int32 for int8, float32 for float32", ParameterOption.OPTIONAL
)
CONVOLUTION_OUTPUT = FormalParameter("output", "T", "[batch, out_height, out_width, out_channels]")
CONVOLUTION_TYPE_CONSTRAINTS = (
    TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32, activations and filter"),
    TypeConstraint(
        "TBias", (DType.INT32, DType.FLOAT32), "int32 bias (scale input_scale * filter_scale) or float32 bias"
    ),
)

# The bias dtype that goes with each activation dtype (TBias).
BIAS_DTYPES = {DType.INT8: DType.INT32, DType.FLOAT32: DType.FLOAT32}


def check_bias(ctx: InferenceContext, channels: int) -> None:
    """The optional bias (input 2) has one value per output channel, int32 for int8
    activations and float32 for float32 ones."""
    if ctx.has_input(2):
        bias = ctx.input(2)
        count = element_count(bias.shape)
        if count not in (channels, -1):
            raise ctx.fail(f"the bias has {count} values for {channels} output channels", hint="one per channel")
        expected = BIAS_DTYPES.get(ctx.input(0).dtype)
        if expected is not None and bias.dtype is not expected:
            raise ctx.fail(
                f"the bias is {bias.dtype.value} for {ctx.input(0).dtype.value} activations",
                hint=f"give a {ctx.input(0).dtype.value} input a {expected.value} bias",
            )


def convolution_output(
    ctx: InferenceContext, attributes: Any, filter_size: tuple[int, int], out_channels: int
) -> list[TensorType]:
    """The NHWC output of CONV_2D or DEPTHWISE_CONV_2D (after checking the optional bias):
    the input's batch, TFLite's window sizes for the attributes' padding, strides and dilations."""
    info = ctx.input(0)
    batch, height, width, _ = info.shape
    check_bias(ctx, out_channels)
    explicit = tuple(attributes.explicit_padding)
    if explicit and (len(explicit) != 4 or min(explicit) < 0):
        raise ctx.fail(
            f"explicit_padding {list(explicit)} must be four amounts (top, bottom, left, right), none negative",
            hint="leave it empty to use `padding` (SAME or VALID)",
        )
    out_height, out_width = window_2d(
        ctx,
        (axis_padding(attributes, 1), axis_padding(attributes, 2)),
        (height, width),
        filter_size,
        (attributes.stride_height, attributes.stride_width),
        (attributes.dilation_height, attributes.dilation_width),
    )
    return [TensorType(info.dtype, (batch, out_height, out_width, out_channels))]


def infer_conv_2d(ctx: InferenceContext) -> list[TensorType]:
    """[N, H, W, C] * [O, KH, KW, C] -> [N, out_h, out_w, O] (TFLite's ComputeOutSize per dimension)."""
    info, weights = ctx.input(0), ctx.input(1)
    require_rank(ctx, info.shape, 4, "the input (NHWC)")
    require_rank(ctx, weights.shape, 4, "the filter (OHWI)")
    a: Conv2DAttributes = ctx.attributes
    channels = info.shape[3]
    out_channels, filter_height, filter_width, filter_channels = weights.shape
    if -1 not in (channels, filter_channels) and channels != filter_channels:
        raise ctx.fail(
            f"the input has {channels} channels, the filter {filter_channels}",
            hint="grouped convolutions (input channels a multiple of the filter's) are not supported",
        )
    return convolution_output(ctx, a, (filter_height, filter_width), out_channels)


CONV_2D_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="CONV_2D",
    since_version=1,
    doc="2-D convolution of an NHWC input with an OHWI filter (int8: per-tensor or per-channel scales), "
    "plus bias, then the fused activation.",
    inputs=(
        FormalParameter("input", "T", "[batch, height, width, channels]"),
        FormalParameter("filter", "T", "[out_channels, filter_height, filter_width, channels]"),
        CONVOLUTION_BIAS,
    ),
    outputs=(CONVOLUTION_OUTPUT,),
    type_constraints=CONVOLUTION_TYPE_CONSTRAINTS,
    attributes_class=Conv2DAttributes,
    infer=infer_conv_2d,
)
