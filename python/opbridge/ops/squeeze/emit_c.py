# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE: C emitter. The memory planner aliases SQUEEZE like RESHAPE (backends/c/memory_plan.py), so its C is
RESHAPE's: nothing when the output shares the input's bytes, else one copy."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.reshape.emit_c import emit_reshape


def emit_squeeze(ctx: EmitContext, node: Node) -> NodeCode:
    return emit_reshape(ctx, node)
