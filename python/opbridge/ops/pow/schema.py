# SPDX-License-Identifier: Apache-2.0
"""POW's schema: a float32 base and a float32 exponent, NumPy broadcasting, float32 out."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint
from opbridge.schemas.shapes import infer_broadcast_binary

POW_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="POW",
    since_version=1,
    doc="base ** exponent, element-wise with NumPy broadcasting (4-D at most in C).",
    inputs=(FormalParameter("base", "T", "the base"), FormalParameter("exponent", "T", "the exponent")),
    outputs=(FormalParameter("power", "T", "base raised to exponent"),),
    # TFLite's int32 POW is not implemented by opbridge.
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32 for base, exponent and output"),),
    infer=infer_broadcast_binary,
)
