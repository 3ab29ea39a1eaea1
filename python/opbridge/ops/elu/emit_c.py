# SPDX-License-Identifier: Apache-2.0
"""ELU -> opbridge_elu_f32 (cc/kernels/opbridge_activations_f32.h)."""

import math

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import Node
from opbridge.ops.shared.float32 import require_float32

HEADER = "cc/kernels/opbridge_activations_f32.h"


def emit_elu(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    require_float32(node, [("input", input_tensor), ("output", output)])
    if input_tensor.element_count != output.element_count:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} differ in size",
            hint="an element-wise operator's output has its input's shape; the model is inconsistent",
        )
    alpha = node.attributes.alpha
    if not math.isfinite(alpha):
        # A C float literal cannot spell it; no trained ELU has one.
        raise UnsupportedOperatorError(f"{node.describe()}: alpha {alpha} is not finite", hint="use a finite alpha")
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct("opbridge_elu_f32_params_t", params_symbol, fields(alpha=FloatValue(alpha)))
    call = KernelCall(
        "opbridge_elu_f32",
        params,
        (input_tensor.element_count, ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])),
    )
    return NodeCode(includes=[HEADER], call=call)
