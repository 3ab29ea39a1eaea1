# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE -> opbridge_depth_to_space (cc/kernels/opbridge_depth_space.h); SPACE_TO_DEPTH's emitter is
the same with opbridge_space_to_depth."""

from collections.abc import Callable

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.ir import Node
from opbridge.ops.depth_to_space.reference import check_depth_space

HEADER = "cc/kernels/opbridge_depth_space.h"


def depth_space_emitter(kernel: str) -> Callable[[EmitContext, Node], NodeCode]:
    def emit(ctx: EmitContext, node: Node) -> NodeCode:
        graph = ctx.graph
        block = check_depth_space(graph, node)
        input_tensor = graph.tensor(node.inputs[0])
        if input_tensor.element_count == 0:
            return NodeCode(statements=["/* The tensor is empty: no element moves. */", "status = 0;"])
        batch, height, width, depth = input_tensor.shape
        params_symbol = ctx.local_symbol(node, "params")
        params = ParamStruct(
            "opbridge_depth_space_params",
            params_symbol,
            fields(
                element_size=input_tensor.dtype.itemsize,
                batch=batch,
                height=height,
                width=width,
                depth=depth,
                block_size=block,
            ),
        )
        call = KernelCall(kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
        return NodeCode(includes=[HEADER], call=call)

    return emit


emit_depth_to_space = depth_space_emitter("opbridge_depth_to_space")
