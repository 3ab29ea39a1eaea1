# SPDX-License-Identifier: Apache-2.0
"""What READ_VARIABLE and ASSIGN_VARIABLE share: the variable's name and the one node that keeps it.

A LiteRT resource variable becomes module state owned by its READ_VARIABLE node (its persistent
bytes in C, its ReferenceCall.state in the reference). The ASSIGN_VARIABLE of the same variable
takes the READ's output as its second input: that edge keeps the assignment after the read in
every schedule and names the node whose state it overwrites.
"""

import dataclasses
from typing import Any

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import Graph, Node

READ_VARIABLE = "READ_VARIABLE"
ASSIGN_VARIABLE = "ASSIGN_VARIABLE"
# ASSIGN_VARIABLE's inputs: the new value, then the READ_VARIABLE output of the same variable.
ASSIGN_VALUE, ASSIGN_READ = 0, 1
# The key of the value in the READ node's ReferenceCall.state (absent: the initial value).
STATE_KEY = "value"


@dataclasses.dataclass(frozen=True)
class VariableAttributes:
    # The variable's LiteRT shared_name (with its container, "container/shared_name", when it has one).
    variable: str = ""


def variable_reader(graph: Graph, node: Node) -> Node:
    """The READ_VARIABLE node whose state an ASSIGN_VARIABLE overwrites (the producer of its input 1)."""
    read_output = node.inputs[ASSIGN_READ] if len(node.inputs) > ASSIGN_READ else None
    producer = next((n for n in graph.nodes if read_output is not None and read_output in n.outputs), None)
    if producer is None or producer.op_type != READ_VARIABLE or producer.attributes != node.attributes:
        raise UnsupportedOperatorError(
            f"{node.describe()}: variable {node.attributes.variable!r} is assigned without the READ_VARIABLE "
            "of the same variable as its second input",
            hint="import the model with the LiteRT reader, which pairs each ASSIGN_VARIABLE with its READ_VARIABLE",
        )
    return producer


def unresolved_variable_operator(operator: Any) -> VariableAttributes:
    """The LiteRT parser of READ_VARIABLE and ASSIGN_VARIABLE, never asked in a working import: the
    resource-variable step (frontends/litert/resource_variables.py) claims every such operator first,
    since the variable is named by a RESOURCE handle that the operator's own options do not hold."""
    raise UnsupportedOperatorError(
        f"{getattr(operator, 'op_key', 'a variable operator')} was read without resolving its resource variable",
        hint="read the model with opbridge.frontends.litert.read_litert_model, which resolves VAR_HANDLE names",
    )
