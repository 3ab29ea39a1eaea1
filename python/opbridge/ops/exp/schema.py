# SPDX-License-Identifier: Apache-2.0
"""EXP's schema: a float32 tensor to a float32 tensor of its shape (TFLite Micro's EXP is float32 only)."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

EXP_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="EXP",
    since_version=1,
    doc="The exponential e^x, float32 (0 for -inf, inf on overflow).",
    inputs=(FormalParameter("input", "T", "float32 values"),),
    outputs=(FormalParameter("output", "T", "exp(input), of the input's shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=same_as_input(0),
)
