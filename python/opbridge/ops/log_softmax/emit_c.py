# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX -> opbridge_log_softmax_f32 (cc/kernels/opbridge_log_softmax_f32.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Node
from opbridge.ops.shared.float32 import require_float32

HEADER = "cc/kernels/opbridge_log_softmax_f32.h"


def emit_log_softmax(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    require_float32(node, [("input", input_tensor), ("output", output)])
    if not input_tensor.shape or input_tensor.shape[-1] < 1:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has no last axis to normalise over",
            hint="reshape it to at least [1]",
        )
    depth = input_tensor.shape[-1]
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_log_softmax_f32_params", params_symbol, fields(rows=input_tensor.element_count // depth, depth=depth)
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall("opbridge_log_softmax_f32", params, (source, target))
    return NodeCode(includes=[HEADER], call=call)
