# SPDX-License-Identifier: Apache-2.0
"""READ_VARIABLE's schema: the variable's initial value (a constant) -> its current value, of the
same dtype and shape."""

from opbridge.ir import DType
from opbridge.ops.shared.variables import READ_VARIABLE, VariableAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

READ_VARIABLE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name=READ_VARIABLE,
    since_version=1,
    doc="The current value of a resource variable (its initial value until an ASSIGN_VARIABLE stores another).",
    inputs=(FormalParameter("initial_value", "T", "the value after init: a constant"),),
    outputs=(FormalParameter("value", "T", "the variable's current value"),),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32), "the variable's element type"),
    ),
    attributes_class=VariableAttributes,
    infer=same_as_input(0),
)
