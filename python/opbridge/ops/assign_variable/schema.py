# SPDX-License-Identifier: Apache-2.0
"""ASSIGN_VARIABLE's schema: (value, the READ_VARIABLE output of the same variable) -> nothing; the
value has the variable's dtype and shape."""

from opbridge.ir import DType
from opbridge.ops.shared.variables import ASSIGN_VARIABLE, VariableAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_assign_variable(ctx: InferenceContext) -> list[TensorType]:
    value, current = ctx.input(0), ctx.input(1)
    if value.shape != current.shape:
        raise ctx.fail(
            f"variable {ctx.attributes.variable!r} holds {list(current.shape)}, assigned {list(value.shape)}",
            hint="a resource variable keeps one shape",
        )
    return []


ASSIGN_VARIABLE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name=ASSIGN_VARIABLE,
    since_version=1,
    doc="Stores a new value in a resource variable, read by the next run's READ_VARIABLE.",
    inputs=(
        FormalParameter("value", "T", "the new value"),
        FormalParameter("current", "T", "the READ_VARIABLE output of the same variable: the assignment follows it"),
    ),
    outputs=(),
    state_only=True,
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32), "the variable's element type"),
    ),
    attributes_class=VariableAttributes,
    infer=infer_assign_variable,
)
