"""CONV_2D's schema: NHWC input, OHWI filter, optional bias -> NHWC output.

int8 activations and filter with an int32 bias, or float32 throughout.
"""

from opbridge.ir import DType
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


def infer_conv_2d(ctx: InferenceContext) -> list[TensorType]:
    """[N, H, W, C] * [O, KH, KW, C] -> [N, out_h, out_w, O] (TFLite's ComputeOutSize per dimension)."""
    info, weights = ctx.input(0), ctx.input(1)
    require_rank(ctx, info.shape, 4, "the input (NHWC)")
    require_rank(ctx, weights.shape, 4, "the filter (OHWI)")
    a: Conv2DAttributes = ctx.attributes
    batch, height, width, channels = info.shape
    out_channels, filter_height, filter_width, filter_channels = weights.shape
    if -1 not in (channels, filter_channels) and channels != filter_channels:
        raise ctx.fail(
            f"the input has {channels} channels, the filter {filter_channels}",
            hint="grouped convolutions (input channels a multiple of the filter's) are not supported",
        )
    check_bias(ctx, out_channels)
    out_height, out_width = window_2d(
        ctx,
        a.padding,
        (height, width),
        (filter_height, filter_width),
        (a.stride_height, a.stride_width),
        (a.dilation_height, a.dilation_width),
    )
    return [TensorType(info.dtype, (batch, out_height, out_width, out_channels))]


CONV_2D_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="CONV_2D",
    since_version=1,
    doc="2-D convolution of an NHWC input with an OHWI filter (int8: per-tensor or per-channel scales), "
    "plus bias, then the fused activation.",
    inputs=(
        FormalParameter("input", "T", "[batch, height, width, channels]"),
        FormalParameter("filter", "T", "[out_channels, filter_height, filter_width, channels]"),
        FormalParameter(
            "bias", "TBias", "[out_channels]: int32 for int8, float32 for float32", ParameterOption.OPTIONAL
        ),
    ),
    outputs=(FormalParameter("output", "T", "[batch, out_height, out_width, out_channels]"),),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32, activations and filter"),
        TypeConstraint(
            "TBias", (DType.INT32, DType.FLOAT32), "int32 bias (scale input_scale * filter_scale) or float32 bias"
        ),
    ),
    attributes_class=Conv2DAttributes,
    infer=infer_conv_2d,
)
