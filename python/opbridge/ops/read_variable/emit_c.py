# SPDX-License-Identifier: Apache-2.0
"""READ_VARIABLE -> a copy of the variable's bytes (this node's persistent arena bytes) into its output.

The module's init copies the initial value (a const array) into those bytes; ASSIGN_VARIABLE
overwrites them through this node's persistent pointer."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Graph, Node


def variable_bytes(graph: Graph, node: Node) -> int:
    """The variable's bytes: the READ node's persistent memory."""
    return graph.tensor(node.outputs[0]).bytes


def emit_read_variable(ctx: EmitContext, node: Node) -> NodeCode:
    initial = ctx.graph.tensor(node.inputs[0])
    if not initial.is_constant:
        raise UnsupportedTensorError(
            f"{node.describe()}: the initial value of variable {node.attributes.variable!r} is not a constant",
            hint="a resource variable is initialised by CALL_ONCE's init subgraph with a constant",
        )
    size = variable_bytes(ctx.graph, node)
    state = ctx.persistent_pointer(node, "uint8_t")
    init = [f"memcpy({state}, {ctx.pointer(node.inputs[0])}, {size}u);"]
    call = f"memcpy({ctx.pointer(node.outputs[0])}, {state}, {size}u);"
    return NodeCode(["string.h"], [], [call], init)
