# SPDX-License-Identifier: Apache-2.0
"""PACK -> opbridge_split_pack_join (cc/kernels/opbridge_split_pack.h), through ops/split's emit_parts:
the output is cut along the new axis into parts of size 1, one per input."""

from typing import cast

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.pack.reference import pack_axis
from opbridge.ops.split.emit_c import emit_parts


def emit_pack(ctx: EmitContext, node: Node) -> NodeCode:
    axis = pack_axis(ctx.graph, node)  # every input checked present
    inputs = [cast(int, index) for index in node.inputs]
    return emit_parts(ctx, node, node.outputs[0], inputs, axis, [1] * len(inputs), join=True)
