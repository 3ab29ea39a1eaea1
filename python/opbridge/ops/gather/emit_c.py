# SPDX-License-Identifier: Apache-2.0
"""GATHER -> opbridge_gather_s32_positions or opbridge_gather_s64_positions (cc/kernels/opbridge_gather.h).

The input is seen as [outer, axis, inner] around the gathered axis; the kernel
checks every position at run time (constant positions are checked here too, so
a model that could only fail is refused at conversion).
"""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.ir import DType, Node
from opbridge.ops.gather.reference import gather_geometry, node_gather_axis

HEADER = "cc/kernels/opbridge_gather.h"


def emit_gather(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    axis = node_gather_axis(graph, node)
    input_tensor, positions = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output = graph.tensor(node.outputs[0])
    if output.element_count == 0:
        return NodeCode(statements=["/* The output is empty: no element moves. */", "status = 0;"])
    outer, axis_size, inner, count = gather_geometry(input_tensor, positions, axis)
    kernel = "opbridge_gather_s64_positions" if positions.dtype is DType.INT64 else "opbridge_gather_s32_positions"
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_gather_params",
        params_symbol,
        fields(
            element_size=input_tensor.dtype.itemsize,
            outer_size=outer,
            axis_size=axis_size,
            inner_size=inner,
            position_count=count,
        ),
    )
    call = KernelCall(
        kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0]))
    )
    return NodeCode(includes=[HEADER], call=call)
