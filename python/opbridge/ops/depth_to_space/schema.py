# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE's schema: an NHWC int8 or float32 tensor, its channels moved into block x block squares."""

from collections.abc import Callable

from opbridge.ops.depth_to_space.attributes import BlockSizeAttributes
from opbridge.ops.depth_to_space.reference import DEPTH_SPACE_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import require_rank


def infer_depth_to_space(ctx: InferenceContext) -> list[TensorType]:
    """[N, H, W, C] -> [N, H * block, W * block, C / block^2]; block >= 1 and block^2 divides C."""
    info = ctx.input(0)
    require_rank(ctx, info.shape, 4, "the input")
    block = block_size(ctx)
    n, h, w, c = info.shape
    if c != -1 and c % (block * block):
        raise ctx.fail(f"block_size {block}: the channels ({c}) are not a multiple of {block * block}")
    scaled = [-1 if size == -1 else size * block for size in (h, w)]
    return [TensorType(info.dtype, (n, scaled[0], scaled[1], -1 if c == -1 else c // (block * block)))]


def block_size(ctx: InferenceContext) -> int:
    a: BlockSizeAttributes = ctx.attributes
    if a.block_size < 1:
        raise ctx.fail(f"block_size {a.block_size} is not >= 1", hint="TFLite Micro requires a positive block size")
    return a.block_size


def depth_space_schema(name: str, doc: str, infer: Callable[[InferenceContext], list[TensorType]]) -> OpSchema:
    return OpSchema(
        domain=BUILTIN_DOMAIN,
        name=name,
        since_version=1,
        doc=doc,
        inputs=(FormalParameter("input", "T", "NHWC int8 or float32 values"),),
        outputs=(FormalParameter("output", "T", "the input's elements rearranged (NHWC, DCR order)"),),
        type_constraints=(TypeConstraint("T", DEPTH_SPACE_DTYPES, "int8 (the input's quantization kept) or float32"),),
        attributes_class=BlockSizeAttributes,
        infer=infer,
    )


DEPTH_TO_SPACE_SCHEMA = depth_space_schema(
    "DEPTH_TO_SPACE",
    "Moves channels into space: output (n, h * block + y, w * block + x, d) is input (n, h, w, "
    "(y * block + x) * (C / block^2) + d). Elements are moved unchanged.",
    infer_depth_to_space,
)
