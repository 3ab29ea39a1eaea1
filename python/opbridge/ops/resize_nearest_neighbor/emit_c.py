# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR -> opbridge_resize_nearest_neighbor (cc/kernels/opbridge_resize.h); RESIZE_BILINEAR's
emitter shares the parameters."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.ir import Graph, Node
from opbridge.ops.resize_nearest_neighbor.reference import NEAREST_DTYPES, ResizeGeometry, check_resize

HEADER = "cc/kernels/opbridge_resize.h"


def resize_call(ctx: EmitContext, node: Node, geometry: ResizeGeometry, kernel: str) -> NodeCode:
    """The opbridge_resize_params of `geometry` and the call of `kernel` on the node's input and output."""
    graph = ctx.graph
    input_tensor = graph.tensor(node.inputs[0])
    if graph.tensor(node.outputs[0]).element_count == 0:
        return NodeCode(statements=["/* The output is empty: nothing to resize. */", "status = 0;"])
    g = geometry
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_resize_params",
        params_symbol,
        fields(
            element_size=input_tensor.dtype.itemsize,
            batch=g.batch,
            input_height=g.input_height,
            input_width=g.input_width,
            depth=g.depth,
            output_height=g.output_height,
            output_width=g.output_width,
            align_corners=int(g.align_corners),
            half_pixel_centers=int(g.half_pixel_centers),
        ),
    )
    call = KernelCall(kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[HEADER], call=call)


def emit_resize_nearest_neighbor(ctx: EmitContext, node: Node) -> NodeCode:
    geometry = check_resize(ctx.graph, node, NEAREST_DTYPES)
    return resize_call(ctx, node, geometry, "opbridge_resize_nearest_neighbor")


def size_input(graph: Graph, node: Node) -> list[int]:
    """The size, a constant the parameters carry (OperatorDefinition.absorbed_constants): the kernel never
    reads it."""
    index = node.inputs[1] if len(node.inputs) > 1 else None
    return [index] if index is not None and graph.tensor(index).is_constant else []
