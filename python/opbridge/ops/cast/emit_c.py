# SPDX-License-Identifier: Apache-2.0
"""CAST -> opbridge_cast_<from>_<to> (cc/kernels/opbridge_kernels_int.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall
from opbridge.ir import Node
from opbridge.ops.cast.reference import check_cast
from opbridge.ops.shared.emit_elementwise import INT_KERNELS_HEADER, KERNEL_SUFFIXES


def emit_cast(ctx: EmitContext, node: Node) -> NodeCode:
    source, target = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    check_cast(node, source, target)
    kernel = f"opbridge_cast_{KERNEL_SUFFIXES[source.dtype]}_{KERNEL_SUFFIXES[target.dtype]}"
    call = KernelCall(kernel, None, (source.element_count, ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[INT_KERNELS_HEADER], call=call)
