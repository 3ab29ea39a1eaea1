# SPDX-License-Identifier: Apache-2.0
"""RSQRT's schema: a float32 or int8 tensor to one of its dtype and shape (TFLite Micro's RSQRT types)."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

RSQRT_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="RSQRT",
    since_version=1,
    doc="The reciprocal square root 1 / sqrt(x), float32 or quantized int8 (int8 inputs must be >= 0 as reals).",
    inputs=(FormalParameter("input", "T", "float32 values, or int8 values at or above the zero point"),),
    outputs=(FormalParameter("output", "T", "1 / sqrt(input), of the input's shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8 or float32"),),
    infer=same_as_input(0),
)
