# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR's schema (RESIZE_BILINEAR's is built the same): NHWC resized to a constant size."""

from opbridge.ir import DType
from opbridge.ops.resize_nearest_neighbor.attributes import ResizeAttributes
from opbridge.ops.resize_nearest_neighbor.reference import NEAREST_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import constant_int_vector, require_rank


def infer_resize(ctx: InferenceContext) -> list[TensorType]:
    """[N, H, W, C] and size (height, width) -> [N, height, width, C]; both sizes >= 1."""
    info = ctx.input(0)
    require_rank(ctx, info.shape, 4, "the input")
    height, width = constant_int_vector(ctx, 1, "size", 2)
    if height < 1 or width < 1:
        raise ctx.fail(f"size {[height, width]} has an entry below 1", hint="the output needs rows and columns")
    n, _, _, c = info.shape
    return [TensorType(info.dtype, (n, height, width, c))]


def resize_schema(name: str, doc: str, dtypes: tuple[DType, ...]) -> OpSchema:
    return OpSchema(
        domain=BUILTIN_DOMAIN,
        name=name,
        since_version=1,
        doc=doc,
        inputs=(
            FormalParameter("input", "T", "NHWC values"),
            FormalParameter("size", "Tsize", "constant int32 [2]: the output's height and width, >= 1"),
        ),
        outputs=(FormalParameter("output", "T", "[N, size[0], size[1], C], NHWC"),),
        type_constraints=(
            TypeConstraint("T", dtypes, "the same for input and output; integers keep the input's quantization"),
            TypeConstraint("Tsize", (DType.INT32,), "int32"),
        ),
        attributes_class=ResizeAttributes,
        infer=infer_resize,
    )


RESIZE_NEAREST_NEIGHBOR_SCHEMA = resize_schema(
    "RESIZE_NEAREST_NEIGHBOR",
    "Resizes height and width to `size` by copying, for each output pixel, the nearest input pixel "
    "(TFLite's index rule: float32 scale, floor or, with align_corners, round). Elements are moved unchanged.",
    NEAREST_DTYPES,
)
