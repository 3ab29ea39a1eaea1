# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION -> opbridge_l2_normalization_<f32|s8> (cc/kernels/opbridge_l2_normalization.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.ir import DType, Node
from opbridge.ops.l2_normalization.reference import check_l2_normalization

HEADER = "cc/kernels/opbridge_l2_normalization.h"


def emit_l2_normalization(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    zero_point = check_l2_normalization(graph, node)
    input_tensor = graph.tensor(node.inputs[0])
    if input_tensor.element_count == 0:
        return NodeCode(statements=["/* The tensor is empty. */", "status = 0;"])
    depth = input_tensor.shape[-1]
    rows = input_tensor.element_count // depth
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_l2_normalization_params", params_symbol, fields(rows=rows, depth=depth, input_zero_point=zero_point)
    )
    kernel = "opbridge_l2_normalization_f32" if input_tensor.dtype is DType.FLOAT32 else "opbridge_l2_normalization_s8"
    call = KernelCall(kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[HEADER], call=call)
