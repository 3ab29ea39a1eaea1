# SPDX-License-Identifier: Apache-2.0
"""UNPACK -> opbridge_split_pack_split (cc/kernels/opbridge_split_pack.h), through ops/split's emit_parts:
the input is cut along the axis into parts of size 1, one per output."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.split.emit_c import emit_parts
from opbridge.ops.unpack.reference import unpack_axis, whole_input


def emit_unpack(ctx: EmitContext, node: Node) -> NodeCode:
    axis = unpack_axis(ctx.graph, node)
    return emit_parts(ctx, node, whole_input(node), node.outputs, axis, [1] * len(node.outputs), join=False)
