# SPDX-License-Identifier: Apache-2.0
"""SOFTPLUS's schema: a float32 tensor to a float32 tensor of its shape."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

SOFTPLUS_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SOFTPLUS",
    since_version=1,
    doc="log(1 + exp(x)), float32, computed without overflow (x for large x, 0 for very negative x).",
    inputs=(FormalParameter("input", "T", "float32 values"),),
    outputs=(FormalParameter("output", "T", "softplus(input), of the input's shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=same_as_input(0),
)
