# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS: C emitter. The memory planner aliases it like RESHAPE (its definition's NodeMemory), so its C is
RESHAPE's: nothing when the output shares the input's bytes, else one copy."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.reshape.emit_c import emit_reshape


def emit_expand_dims(ctx: EmitContext, node: Node) -> NodeCode:
    return emit_reshape(ctx, node)
