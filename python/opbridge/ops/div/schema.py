# SPDX-License-Identifier: Apache-2.0
"""DIV's schema: two plain int32 or two float32 tensors, NumPy broadcasting, a quotient of that dtype."""

from opbridge.ir import DType
from opbridge.ops.div.attributes import DivAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint
from opbridge.schemas.shapes import infer_broadcast_binary

DIV_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="DIV",
    since_version=1,
    doc="Element-wise quotient with NumPy broadcasting: int32 truncated toward zero (x / 0 is 0), or float32.",
    inputs=(FormalParameter("a", "T", "dividend"), FormalParameter("b", "T", "divisor")),
    outputs=(FormalParameter("quotient", "T", "a / b (int32: truncated toward zero), clamped by the activation"),),
    # TFLite Micro's int8 DIV is not implemented by opbridge.
    type_constraints=(
        TypeConstraint(
            "T",
            (DType.INT32, DType.FLOAT32, DType.FLOAT64),
            "plain (unquantized) int32, or float32; float64 in the host reference only",
        ),
    ),
    attributes_class=DivAttributes,
    infer=infer_broadcast_binary,
)
