# SPDX-License-Identifier: Apache-2.0
"""MINIMUM's schema: two int8, int16, int32 or float32 tensors of one dtype, NumPy broadcasting, that dtype out."""

from opbridge.ops.shared.min_max import MIN_MAX_DTYPES
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint
from opbridge.schemas.shapes import infer_broadcast_binary

MINIMUM_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="MINIMUM",
    since_version=1,
    doc="The element-wise smaller of two tensors, NumPy broadcasting; raw values are compared "
    "(whatever the quantization).",
    inputs=(FormalParameter("a", "T", "first operand"), FormalParameter("b", "T", "second operand")),
    outputs=(FormalParameter("minimum", "T", "the smaller of a and b at each position"),),
    type_constraints=(
        TypeConstraint("T", MIN_MAX_DTYPES, "int8, int16, int32 or float32, the same for inputs and output"),
    ),
    infer=infer_broadcast_binary,
)
