# SPDX-License-Identifier: Apache-2.0
"""GELU's schema: an int8 or float32 tensor to a tensor of its dtype and shape."""

from opbridge.ir import DType
from opbridge.ops.gelu.attributes import GeluAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

GELU_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="GELU",
    since_version=1,
    doc="x * Phi(x), the Gaussian error linear unit: 0.5 x erfc(-x / sqrt(2)), or with `approximate` "
    "0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))); int8 through a 256-entry table made at conversion time.",
    inputs=(FormalParameter("input", "T", "int8 or float32 values"),),
    outputs=(FormalParameter("output", "T", "the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),),
    attributes_class=GeluAttributes,
    infer=same_as_input(0),
)
