# SPDX-License-Identifier: Apache-2.0
"""ASSIGN_VARIABLE: stores its value in the state of the variable's READ_VARIABLE (the interpreter
hands this node that state: OperatorDefinition.state_owner)."""

from opbridge.ir import Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.variables import ASSIGN_VALUE, STATE_KEY, variable_reader


def variable_state_owner(graph: Graph, node: Node) -> Node:
    """The node whose state this one writes: the READ_VARIABLE of the same variable."""
    return variable_reader(graph, node)


def assign_variable_reference(call: ReferenceCall) -> list[Array]:
    call.state[STATE_KEY] = call.value(ASSIGN_VALUE).copy()
    return []
