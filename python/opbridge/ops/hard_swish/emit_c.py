# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH -> opbridge_hard_swish_s8 or opbridge_hard_swish_f32 (cc/kernels/opbridge_hard_swish.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.hard_swish.reference import hard_swish_parameters
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import require_dtype

HEADER = "cc/kernels/opbridge_hard_swish.h"


def emit_hard_swish(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    if input_tensor.element_count != output.element_count:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} differ in size",
            hint="an element-wise operator's output has its input's shape; the model is inconsistent",
        )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        require_float32(node, [("input", input_tensor), ("output", output)])
        call = KernelCall("opbridge_hard_swish_f32", None, (input_tensor.element_count, source, target))
        return NodeCode(includes=[HEADER], call=call)
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    p = hard_swish_parameters(node, input_tensor, output)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_hard_swish_s8_params",
        params_symbol,
        fields(
            size=input_tensor.element_count,
            input_zero_point=p.input_zero_point,
            output_zero_point=p.output_zero_point,
            output_multiplier=p.output_multiplier,
            output_exponent=p.output_exponent,
            reluish_multiplier=p.reluish_multiplier,
            reluish_exponent=p.reluish_exponent,
        ),
    )
    call = KernelCall("opbridge_hard_swish_s8", params, (source, target))
    return NodeCode(includes=[HEADER], call=call)
