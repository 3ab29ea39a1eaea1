# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.logistic.reference import activation_parameters
from opbridge.ops.shared.emit_elementwise import emit_float32_unary
from opbridge.ops.shared.quantized import require_dtype, require_quantization


def emit_activation(ctx: EmitContext, node: Node, kernel: str) -> NodeCode:
    input_tensor = ctx.graph.tensor(node.inputs[0])
    require_dtype(node, input_tensor, "input")
    require_dtype(node, ctx.graph.tensor(node.outputs[0]), "output")
    p = activation_parameters(node, input_tensor)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_activation_s8_params",
        params_symbol,
        fields(
            size=input_tensor.element_count,
            input_zero_point=p.zero_point,
            input_multiplier=p.multiplier,
            input_left_shift=p.left_shift,
            input_range_radius=p.range_radius,
        ),
    )
    call = KernelCall(kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[KERNELS_HEADER], call=call)


def emit_logistic(ctx: EmitContext, node: Node) -> NodeCode:
    if ctx.graph.tensor(node.inputs[0]).dtype is DType.FLOAT32:
        return emit_float32_unary(ctx, node, "opbridge_logistic_f32")
    output_q = require_quantization(node, ctx.graph.tensor(node.outputs[0]), "output")
    if output_q.zero_point != -128:
        raise UnsupportedTensorError(
            f"{node.describe()}: int8 LOGISTIC needs output zero point -128, got {output_q.zero_point}",
            hint="re-quantize the model with output scale 1/256 and zero point -128",
        )
    return emit_activation(ctx, node, "opbridge_logistic_s8")
