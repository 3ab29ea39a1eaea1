# SPDX-License-Identifier: Apache-2.0
"""ADD's schema: two tensors of one dtype (int8, int16, int32, float32), NumPy broadcasting, output of that dtype."""

from opbridge.ir import DType
from opbridge.ops.add.attributes import AddAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import broadcast


def infer_add(ctx: InferenceContext) -> list[TensorType]:
    first, second = ctx.input(0), ctx.input(1)
    return [TensorType(first.dtype, broadcast(ctx, first.shape, second.shape))]


ADD_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="ADD",
    since_version=1,
    doc="Element-wise sum with NumPy broadcasting; int8 and int16 inputs carry their own scales.",
    inputs=(FormalParameter("a", "T", "first addend"), FormalParameter("b", "T", "second addend")),
    outputs=(FormalParameter("sum", "T", "a + b, rescaled to the output's quantization for int8"),),
    type_constraints=(
        TypeConstraint(
            "T",
            (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32, DType.INT64, DType.FLOAT64),
            "quantized int8 or int16 (16x8), plain int32 or int64 (wrapping), or float32; "
            "float64 in the host reference only",
        ),
    ),
    attributes_class=AddAttributes,
    infer=infer_add,
)
