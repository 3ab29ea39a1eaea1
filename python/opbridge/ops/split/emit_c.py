# SPDX-License-Identifier: Apache-2.0
"""SPLIT -> opbridge_split_pack_split (cc/kernels/opbridge_split_pack.h); `emit_parts` serves SPLIT_V,
PACK and UNPACK too.

The whole tensor is seen as [outer, axis, inner] around the cut axis; each part
is [outer, its size, inner] (UNPACK's and PACK's parts have size 1: their
missing axis). The axis and the sizes are constants carried by the parameters.
"""

from collections.abc import Sequence
from typing import cast

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import CExpression, KernelCall, ParamStruct, fields
from opbridge.ir import Node
from opbridge.ops.split.reference import outer_inner, split_geometry

HEADER = "cc/kernels/opbridge_split_pack.h"


def emit_parts(
    ctx: EmitContext, node: Node, whole: int, parts: Sequence[int], axis: int, sizes: Sequence[int], join: bool
) -> NodeCode:
    """The kernel call moving `whole` (a tensor index) to `parts` (split) or `parts` to `whole` (join), cut
    along `axis` of the whole tensor into parts of `sizes` along it."""
    tensor = ctx.graph.tensor(whole)
    if tensor.element_count == 0:
        return NodeCode(statements=["/* The tensors are empty: no element moves. */", "status = 0;"])
    outer, inner = outer_inner(tensor.shape, axis)
    sizes_definition, sizes_symbol = ctx.int32_array(node, "part_sizes", list(sizes))
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_split_pack_params",
        params_symbol,
        fields(
            element_size=tensor.dtype.itemsize,
            outer_size=outer,
            inner_size=inner,
            part_count=len(sizes),
            part_sizes=CExpression(sizes_symbol),
        ),
    )
    pointers = ", ".join(ctx.pointer(index) for index in parts)
    if join:
        declaration = f"const void *const parts[{len(parts)}] = {{{pointers}}};"
        call = KernelCall("opbridge_split_pack_join", params, ("parts", ctx.pointer(whole)))
    else:
        declaration = f"void *const parts[{len(parts)}] = {{{pointers}}};"
        call = KernelCall("opbridge_split_pack_split", params, (ctx.pointer(whole), "parts"))
    return NodeCode(includes=[HEADER], definitions=[sizes_definition], statements=[declaration], call=call)


def emit_split(ctx: EmitContext, node: Node) -> NodeCode:
    axis, sizes = split_geometry(ctx.graph, node)
    return emit_parts(ctx, node, cast(int, node.inputs[1]), node.outputs, axis, sizes, join=False)
