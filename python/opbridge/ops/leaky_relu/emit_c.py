# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU -> opbridge_leaky_relu_s8 or opbridge_leaky_relu_f32 (cc/kernels/opbridge_leaky_relu.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, fields
from opbridge.ir import DType, Node
from opbridge.ops.leaky_relu.reference import leaky_relu_parameters
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import require_dtype

HEADER = "cc/kernels/opbridge_leaky_relu.h"


def emit_leaky_relu(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    params_symbol = ctx.local_symbol(node, "params")
    if input_tensor.dtype is DType.FLOAT32:
        require_float32(node, [("input", input_tensor), ("output", output)])
        kernel = "opbridge_leaky_relu_f32"
        params = ParamStruct(
            "opbridge_leaky_relu_f32_params",
            params_symbol,
            fields(size=input_tensor.element_count, alpha=FloatValue(node.attributes.alpha)),
        )
    else:
        require_dtype(node, input_tensor, "input")
        require_dtype(node, output, "output")
        p = leaky_relu_parameters(node, input_tensor, output)
        kernel = "opbridge_leaky_relu_s8"
        params = ParamStruct(
            "opbridge_leaky_relu_s8_params",
            params_symbol,
            fields(
                size=input_tensor.element_count,
                input_zero_point=p.input_zero_point,
                output_zero_point=p.output_zero_point,
                identity_multiplier=p.identity_multiplier,
                identity_shift=p.identity_shift,
                alpha_multiplier=p.alpha_multiplier,
                alpha_shift=p.alpha_shift,
            ),
        )
    call = KernelCall(kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[HEADER], call=call)
