# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH's schema: an NHWC int8 or float32 tensor, its block x block squares moved into channels."""

from opbridge.ops.depth_to_space.schema import block_size, depth_space_schema
from opbridge.schemas.schema import InferenceContext, TensorType
from opbridge.schemas.shapes import require_rank


def infer_space_to_depth(ctx: InferenceContext) -> list[TensorType]:
    """[N, H, W, C] -> [N, H / block, W / block, C * block^2]; block >= 1 divides H and W."""
    info = ctx.input(0)
    require_rank(ctx, info.shape, 4, "the input")
    block = block_size(ctx)
    n, h, w, c = info.shape
    for what, size in (("height", h), ("width", w)):
        if size != -1 and size % block:
            raise ctx.fail(f"block_size {block}: the {what} ({size}) is not a multiple of it")
    shrunk = [-1 if size == -1 else size // block for size in (h, w)]
    return [TensorType(info.dtype, (n, shrunk[0], shrunk[1], -1 if c == -1 else c * block * block))]


SPACE_TO_DEPTH_SCHEMA = depth_space_schema(
    "SPACE_TO_DEPTH",
    "Moves space into channels: output (n, h, w, (y * block + x) * C + c) is input (n, h * block + y, "
    "w * block + x, c). Elements are moved unchanged.",
    infer_space_to_depth,
)
