# SPDX-License-Identifier: Apache-2.0
"""TANH's schema: an int8 or float32 tensor to a tensor of its dtype and shape."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

TANH_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="TANH",
    since_version=1,
    doc="Hyperbolic tangent: int8 by gemmlowp's fixed-point tanh (output scale 1/128, zero point 0), or float32.",
    inputs=(FormalParameter("input", "T", "int8 or float32 values"),),
    outputs=(FormalParameter("output", "T", "tanh(input), of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),),
    infer=same_as_input(0),
)
