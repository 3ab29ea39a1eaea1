# SPDX-License-Identifier: Apache-2.0
"""ASSIGN_VARIABLE -> a copy of its value into the persistent bytes of the variable's READ_VARIABLE
(the node that owns the variable in the module's arena)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Node
from opbridge.ops.shared.variables import ASSIGN_VALUE, variable_reader


def emit_assign_variable(ctx: EmitContext, node: Node) -> NodeCode:
    reader = variable_reader(ctx.graph, node)
    value, variable = ctx.graph.tensor(node.inputs[ASSIGN_VALUE]), ctx.graph.tensor(reader.outputs[0])
    if value.dtype is not variable.dtype or value.bytes != variable.bytes:
        raise UnsupportedTensorError(
            f"{node.describe()}: variable {node.attributes.variable!r} is {variable.dtype.value}"
            f"{list(variable.shape)}, assigned {value.describe()}",
            hint="assign a value of the variable's dtype and shape",
        )
    state = ctx.persistent_pointer(reader, "uint8_t")
    call = f"memcpy({state}, {ctx.pointer(node.inputs[ASSIGN_VALUE])}, {value.bytes}u);"
    return NodeCode(["string.h"], [], [call])
