# SPDX-License-Identifier: Apache-2.0
"""READ_VARIABLE: the value its ASSIGN_VARIABLE stored last, or the initial value (after a reset too)."""

from opbridge.errors import UnsupportedTensorError
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.variables import STATE_KEY


def read_variable_reference(call: ReferenceCall) -> list[Array]:
    initial = call.input_tensor(0)
    if not initial.is_constant:
        raise UnsupportedTensorError(
            f"{call.node.describe()}: the initial value of variable {call.attributes.variable!r} "
            f"({initial.describe()}) is not a constant",
            hint="a resource variable is initialised by CALL_ONCE's init subgraph with a constant",
        )
    value = call.state.get(STATE_KEY)
    return [(call.value(0) if value is None else value).copy()]
