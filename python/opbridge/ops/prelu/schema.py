# SPDX-License-Identifier: Apache-2.0
"""PRELU's schema: a float32 input and a float32 alpha, NumPy broadcasting, float32 out."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint
from opbridge.schemas.shapes import infer_broadcast_binary

PRELU_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="PRELU",
    since_version=1,
    doc="x >= 0 ? x : alpha * x, element-wise with NumPy broadcasting of alpha against x (4-D at most in C).",
    inputs=(
        FormalParameter("input", "T", "the values x"),
        FormalParameter("alpha", "T", "the slope below zero, broadcast against the input"),
    ),
    outputs=(FormalParameter("output", "T", "x where x >= 0, alpha * x elsewhere"),),
    # TFLite Micro's int8 and int16 PRELU (two fixed-point rescales) is not implemented by opbridge.
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32 for input, alpha and output"),),
    infer=infer_broadcast_binary,
)
