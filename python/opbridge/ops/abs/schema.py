# SPDX-License-Identifier: Apache-2.0
"""ABS's schema: a float32 tensor to a float32 tensor of its shape (TFLite Micro's ABS is float32 only)."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

ABS_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="ABS",
    since_version=1,
    doc="The absolute value |x|, float32 (exact: only the sign bit changes).",
    inputs=(FormalParameter("input", "T", "float32 values"),),
    outputs=(FormalParameter("output", "T", "|input|, of the input's shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=same_as_input(0),
)
