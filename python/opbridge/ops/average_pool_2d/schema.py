# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D's schema (MAX_POOL_2D's too): an int8 or float32 NHWC tensor to [N, out_h, out_w, C] of its dtype."""

from opbridge.ir import DType
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes, pool_axis_padding
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import require_rank, window_2d


def infer_pool_2d(ctx: InferenceContext) -> list[TensorType]:
    """[batch, height, width, channels] -> [batch, out_height, out_width, channels] (TFLite's ComputeOutSize;
    with explicit pads, as many windows as fit in the padded input)."""
    info = ctx.input(0)
    require_rank(ctx, info.shape, 4, "the input (NHWC)")
    a: Pool2DAttributes = ctx.attributes
    batch, height, width, channels = info.shape
    pads = tuple(a.pads)
    if pads and (
        len(pads) != 4 or min(pads) < 0 or max(pads[:2]) >= a.filter_height or max(pads[2:]) >= a.filter_width
    ):
        raise ctx.fail(
            f"pads {list(pads)} must be four amounts (top, bottom, left, right), none negative and each "
            f"smaller than the filter ({a.filter_height} x {a.filter_width}) along its axis",
            hint="leave pads empty to use `padding` (SAME or VALID)",
        )
    out_height, out_width = window_2d(
        ctx,
        (pool_axis_padding(a, 1), pool_axis_padding(a, 2)),
        (height, width),
        (a.filter_height, a.filter_width),
        (a.stride_height, a.stride_width),
    )
    return [TensorType(info.dtype, (batch, out_height, out_width, channels))]


def pool_2d_schema(name: str, doc: str, output_doc: str) -> OpSchema:
    return OpSchema(
        domain=BUILTIN_DOMAIN,
        name=name,
        since_version=1,
        doc=doc,
        inputs=(FormalParameter("input", "T", "int8 or float32 [batch, height, width, channels]"),),
        outputs=(FormalParameter("output", "T", output_doc),),
        type_constraints=(
            TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8 (one quantization for both), or float32"),
        ),
        attributes_class=Pool2DAttributes,
        infer=infer_pool_2d,
    )


AVERAGE_POOL_2D_SCHEMA = pool_2d_schema(
    "AVERAGE_POOL_2D",
    "Mean over each filter window, counting only the input positions it covers (padding is not counted).",
    "[batch, out_height, out_width, channels]: each window's mean (int8: rounded)",
)
