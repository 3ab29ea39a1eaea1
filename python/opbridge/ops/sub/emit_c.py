# SPDX-License-Identifier: Apache-2.0
"""SUB: C emitter."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.add.emit_c import emit_add_or_sub
from opbridge.ops.shared.emit_elementwise import emit_broadcast_binary, emit_float32_binary
from opbridge.ops.shared.wide_dtypes import S64_KERNELS_HEADER
from opbridge.ops.sub.reference import sub_parameters


def emit_sub(ctx: EmitContext, node: Node) -> NodeCode:
    if ctx.graph.tensor(node.outputs[0]).dtype is DType.INT64:
        return emit_broadcast_binary(ctx, node, "opbridge_sub_s64", S64_KERNELS_HEADER, "opbridge_broadcast_4d", None)
    if ctx.graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, "opbridge_sub_f32", node.attributes.activation)
    return emit_add_or_sub(ctx, node, sub_parameters, "opbridge_sub_s8")
