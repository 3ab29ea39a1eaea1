# SPDX-License-Identifier: Apache-2.0
"""ELU's schema: a float32 tensor to a float32 tensor of its shape.

TFLite Micro's int8 ELU (a lookup table) is not implemented, so an int8 ELU is refused when the model is
read, with a message naming the dtype.
"""

from opbridge.ir import DType
from opbridge.ops.elu.attributes import EluAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

ELU_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="ELU",
    since_version=1,
    doc="x for x >= 0 (and NaN), alpha * expm1(x) below 0; float32.",
    inputs=(FormalParameter("input", "T", "float32 values"),),
    outputs=(FormalParameter("output", "T", "the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32 (int8 is not supported yet)"),),
    attributes_class=EluAttributes,
    infer=same_as_input(0),
)
