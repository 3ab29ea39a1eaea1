# SPDX-License-Identifier: Apache-2.0
"""SQRT's schema: a float32 tensor to a float32 tensor of its shape (TFLite Micro's SQRT is float32 only)."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

SQRT_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SQRT",
    since_version=1,
    doc="The square root, float32 (correctly rounded; -0.0 for -0.0, NaN below 0).",
    inputs=(FormalParameter("input", "T", "float32 values"),),
    outputs=(FormalParameter("output", "T", "sqrt(input), of the input's shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=same_as_input(0),
)
