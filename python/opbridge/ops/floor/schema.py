# SPDX-License-Identifier: Apache-2.0
"""FLOOR's schema: a float32 tensor to a float32 tensor of its shape (TFLite Micro's FLOOR is float32 only)."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

FLOOR_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="FLOOR",
    since_version=1,
    doc="The largest integer not above each value, float32 (exact; -0.0 for -0.0, infinities and NaN pass).",
    inputs=(FormalParameter("input", "T", "float32 values"),),
    outputs=(FormalParameter("output", "T", "floor(input), of the input's shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=same_as_input(0),
)
