# SPDX-License-Identifier: Apache-2.0
"""TILE -> opbridge_tile (cc/kernels/opbridge_tile.h), the axes simplified here.

Axes of size 1 that are not repeated are dropped and an axis that is not
repeated is merged into the axis before it (tiling [a, b] by [m, 1] is tiling
[a * b] by [m]), so most tiles become 1-D or 2-D; then left-padded to 6.
"""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields, int_array
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Graph, Node
from opbridge.ops.tile.reference import check_tile_dtypes, constant_multiples

HEADER = "cc/kernels/opbridge_tile.h"
# OPBRIDGE_TILE_MAX_RANK in cc/kernels/opbridge_tile.h.
MAX_RANK = 6


def tile_lattice(shape: tuple[int, ...], multiples: tuple[int, ...]) -> list[tuple[int, int]]:
    """(input size, multiple) per kept axis: untiled size-1 axes dropped, untiled axes merged outwards."""
    merged: list[tuple[int, int]] = []
    for size, multiple in zip(shape, multiples, strict=True):
        if size == 1 and multiple == 1:
            continue
        if multiple == 1 and merged:
            outer_size, outer_multiple = merged.pop()
            merged.append((outer_size * size, outer_multiple))
            continue
        merged.append((size, multiple))
    return merged


def emit_tile(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    check_tile_dtypes(graph, node)
    multiples = constant_multiples(graph, node)
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    if output.element_count == 0:
        return NodeCode(statements=["/* The output is empty: no element moves. */", "status = 0;"])
    lattice = tile_lattice(tuple(input_tensor.shape), multiples)
    if len(lattice) > MAX_RANK:
        raise UnsupportedTensorError(
            f"{node.describe()}: tiling input {input_tensor.describe()} by {list(multiples)} needs "
            f"{len(lattice)} dimensions; the kernel takes at most {MAX_RANK}",
            hint="reshape to fewer dimensions around the TILE",
        )
    lattice = [(1, 1)] * (MAX_RANK - len(lattice)) + lattice
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_tile_params",
        params_symbol,
        fields(
            element_size=input_tensor.dtype.itemsize,
            input_shape=int_array(size for size, _ in lattice),
            multiples=int_array(multiple for _, multiple in lattice),
        ),
    )
    call = KernelCall("opbridge_tile", params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[HEADER], call=call)


def multiples_input(graph: Graph, node: Node) -> list[int]:
    """The multiples, a constant the parameters carry (OperatorDefinition.absorbed_constants): the
    kernel never reads it, so the module need not keep it."""
    index = node.inputs[1] if len(node.inputs) > 1 else None
    return [index] if index is not None and graph.tensor(index).is_constant else []
