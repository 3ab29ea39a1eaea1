# SPDX-License-Identifier: Apache-2.0
"""FLOOR -> opbridge_floor_f32 (cc/kernels/opbridge_floor.h)."""

import dataclasses

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.shared.emit_elementwise import emit_float32_unary

HEADER = "cc/kernels/opbridge_floor.h"


def emit_floor(ctx: EmitContext, node: Node) -> NodeCode:
    # emit_float32_unary checks the dtypes and sizes; the kernel is declared in this op's header, not its default.
    return dataclasses.replace(emit_float32_unary(ctx, node, "opbridge_floor_f32"), includes=[HEADER])
