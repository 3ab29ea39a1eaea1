# SPDX-License-Identifier: Apache-2.0
"""PRELU -> opbridge_prelu_f32 (cc/kernels/opbridge_binary_f32.h), with broadcasting as 4-D strides."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.shared.emit_elementwise import emit_broadcast_binary
from opbridge.ops.shared.float32 import require_float32

HEADER = "cc/kernels/opbridge_binary_f32.h"


def emit_prelu(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    operands = [("input", node.inputs[0]), ("alpha", node.inputs[1]), ("output", node.outputs[0])]
    require_float32(node, [(role, graph.tensor(index)) for role, index in operands])
    # No clamp: the params are MINIMUM's and MAXIMUM's opbridge_broadcast_4d.
    return emit_broadcast_binary(ctx, node, "opbridge_prelu_f32", HEADER, "opbridge_broadcast_4d", None)
