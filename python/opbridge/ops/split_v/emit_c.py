# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V -> opbridge_split_pack_split (cc/kernels/opbridge_split_pack.h), through ops/split's emit_parts:
the axis and the resolved sizes are constants carried by the parameters."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.split.emit_c import emit_parts
from opbridge.ops.split_v.reference import split_v_geometry, whole_input


def emit_split_v(ctx: EmitContext, node: Node) -> NodeCode:
    axis, sizes = split_v_geometry(ctx.graph, node)
    return emit_parts(ctx, node, whole_input(node), node.outputs, axis, sizes, join=False)
