# SPDX-License-Identifier: Apache-2.0
"""SQUARED_DIFFERENCE -> opbridge_squared_difference_<f32|s32|s8> (cc/kernels/opbridge_squared_difference.h),
with broadcasting as 4-D strides."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, StructValue, fields
from opbridge.ir import DType, Node
from opbridge.ops.shared.emit_elementwise import broadcast_4d_fields, emit_broadcast_binary
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.integer import plain_integer_operands
from opbridge.ops.squared_difference.reference import (
    LEFT_SHIFT,
    int8_quantizations,
    squared_difference_parameters,
)

HEADER = "cc/kernels/opbridge_squared_difference.h"


def emit_squared_difference(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output = graph.tensor(node.outputs[0])
    if output.dtype is DType.FLOAT32:
        require_float32(node, [("input 0", first), ("input 1", second), ("output", output)])
        kernel = "opbridge_squared_difference_f32"
        return emit_broadcast_binary(ctx, node, kernel, HEADER, "opbridge_broadcast_4d", None)
    if output.dtype is DType.INT32:
        plain_integer_operands(node, first, second, output, (DType.INT32,))
        kernel = "opbridge_squared_difference_s32"
        return emit_broadcast_binary(ctx, node, kernel, HEADER, "opbridge_broadcast_4d", None)
    first_q, second_q, output_q = int8_quantizations(node, first, second, output)
    p = squared_difference_parameters(first_q, second_q, output_q)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_squared_difference_s8_params",
        params_symbol,
        fields(
            input1_offset=-first_q.zero_point,
            input2_offset=-second_q.zero_point,
            output_offset=output_q.zero_point,
            left_shift=LEFT_SHIFT,
            input1_multiplier=p.first_multiplier,
            input1_shift=p.first_shift,
            input2_multiplier=p.second_multiplier,
            input2_shift=p.second_shift,
            output_multiplier=p.output_multiplier,
            output_shift=p.output_shift,
            broadcast=StructValue("opbridge_broadcast_4d", broadcast_4d_fields(ctx, node), designated=True),
        ),
    )
    call = KernelCall(
        "opbridge_squared_difference_s8",
        params,
        (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0])),
    )
    return NodeCode(includes=[HEADER], call=call)
