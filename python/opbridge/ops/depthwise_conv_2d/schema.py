# SPDX-License-Identifier: Apache-2.0
"""DEPTHWISE_CONV_2D's schema: NHWC input, [1, KH, KW, C * m] filter, optional bias.

int8 activations and filter with an int32 bias, or float32 throughout.
"""

from opbridge.ops.conv_2d.schema import (
    CONVOLUTION_BIAS,
    CONVOLUTION_OUTPUT,
    CONVOLUTION_TYPE_CONSTRAINTS,
    convolution_output,
)
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType
from opbridge.schemas.shapes import require_rank


def infer_depthwise_conv_2d(ctx: InferenceContext) -> list[TensorType]:
    """[N, H, W, C] * [1, KH, KW, O] -> [N, out_h, out_w, O], O a multiple of C.

    As in TFLite Micro, the output channels come from the filter's shape; the
    depth_multiplier attribute is advisory (the reference uses O // C).
    """
    info, weights = ctx.input(0), ctx.input(1)
    require_rank(ctx, info.shape, 4, "the input (NHWC)")
    require_rank(ctx, weights.shape, 4, "the filter ([1, height, width, out_channels])")
    a: DepthwiseConv2DAttributes = ctx.attributes
    channels = info.shape[3]
    leading, filter_height, filter_width, out_channels = weights.shape
    if leading not in (1, -1):
        raise ctx.fail(f"the filter has shape {list(weights.shape)}; its first dimension must be 1")
    if -1 not in (channels, out_channels) and (channels < 1 or out_channels % channels):
        raise ctx.fail(
            f"the filter has {out_channels} output channels, not a multiple of the input's {channels}",
            hint="output channel c reads input channel c // (out_channels / in_channels)",
        )
    return convolution_output(ctx, a, (filter_height, filter_width), out_channels)


DEPTHWISE_CONV_2D_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="DEPTHWISE_CONV_2D",
    since_version=1,
    doc="Per-channel 2-D convolution: output channel c filters input channel c // multiplier, plus bias.",
    inputs=(
        FormalParameter("input", "T", "[batch, height, width, channels]"),
        FormalParameter("filter", "T", "[1, filter_height, filter_width, out_channels]"),
        CONVOLUTION_BIAS,
    ),
    outputs=(CONVOLUTION_OUTPUT,),
    type_constraints=CONVOLUTION_TYPE_CONSTRAINTS,
    attributes_class=DepthwiseConv2DAttributes,
    infer=infer_depthwise_conv_2d,
)
