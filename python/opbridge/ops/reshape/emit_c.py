# SPDX-License-Identifier: Apache-2.0
"""RESHAPE: nothing to do when the planner aliased output to input; else a copy."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node


def emit_reshape(ctx: EmitContext, node: Node) -> NodeCode:
    source, target = node.inputs[0], node.outputs[0]
    source_tensor = ctx.graph.tensor(source)
    if not source_tensor.is_constant and ctx.plan.offset_of(source) == ctx.plan.offset_of(target):
        return NodeCode(statements=["/* The output aliases the input: no bytes move. */", "status = 0;"])
    return NodeCode(
        includes=["string.h"],
        statements=[
            f"memcpy({ctx.pointer(target)}, {ctx.pointer(source)}, {source_tensor.bytes});",
            "status = 0;",
        ],
    )
