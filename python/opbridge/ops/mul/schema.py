# SPDX-License-Identifier: Apache-2.0
"""MUL's schema: two int8, two plain int32 or two float32 tensors, NumPy broadcasting, output of that dtype."""

from opbridge.ir import DType
from opbridge.ops.add.attributes import AddAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint
from opbridge.schemas.shapes import infer_broadcast_binary

MUL_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="MUL",
    since_version=1,
    doc="Element-wise product with NumPy broadcasting; int8 inputs carry their own scales, int32 wraps around.",
    inputs=(FormalParameter("a", "T", "first factor"), FormalParameter("b", "T", "second factor")),
    outputs=(FormalParameter("product", "T", "a * b, rescaled to the output's quantization for int8"),),
    type_constraints=(
        TypeConstraint(
            "T",
            (DType.INT8, DType.INT32, DType.FLOAT32, DType.INT64, DType.FLOAT64),
            "quantized int8, plain int32 or int64 (wrapping), or float32; float64 in the host reference only",
        ),
    ),
    attributes_class=AddAttributes,
    infer=infer_broadcast_binary,
)
