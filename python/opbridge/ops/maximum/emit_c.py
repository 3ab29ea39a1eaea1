# SPDX-License-Identifier: Apache-2.0
"""MAXIMUM -> opbridge_maximum_<s8|s16|s32|f32>, with broadcasting as 4-D strides."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.shared.min_max import emit_min_max


def emit_maximum(ctx: EmitContext, node: Node) -> NodeCode:
    return emit_min_max(ctx, node, "maximum")
