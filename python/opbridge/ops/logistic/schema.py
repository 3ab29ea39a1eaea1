# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC's schema: an int8 or float32 tensor to a tensor of its dtype and shape."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

LOGISTIC_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="LOGISTIC",
    since_version=1,
    doc="Sigmoid: int8 by gemmlowp's fixed-point logistic (output scale 1/256, zero point -128), or float32.",
    inputs=(FormalParameter("input", "T", "int8 or float32 values"),),
    outputs=(FormalParameter("output", "T", "1 / (1 + exp(-input)), of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),),
    infer=same_as_input(0),
)
