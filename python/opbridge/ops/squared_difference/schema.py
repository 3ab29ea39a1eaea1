# SPDX-License-Identifier: Apache-2.0
"""SQUARED_DIFFERENCE's schema: two int8 tensors with their own scales, or two int32 or float32 tensors, NumPy
broadcasting, an output of that dtype."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint
from opbridge.schemas.shapes import infer_broadcast_binary

SQUARED_DIFFERENCE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SQUARED_DIFFERENCE",
    since_version=1,
    doc="Element-wise (a - b)^2 with NumPy broadcasting; each int8 tensor carries its own scale.",
    inputs=(FormalParameter("a", "T", "first operand"), FormalParameter("b", "T", "second operand")),
    outputs=(FormalParameter("output", "T", "(a - b)^2, rescaled to the output's quantization for int8"),),
    # TFLite Micro also has an int16 SQUARED_DIFFERENCE; opbridge implements int8, int32 and float32.
    type_constraints=(
        TypeConstraint(
            "T", (DType.INT8, DType.INT32, DType.FLOAT32), "quantized int8, plain int32 (wrapping), or float32"
        ),
    ),
    infer=infer_broadcast_binary,
)
