# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION -> opbridge_local_response_normalization_f32
(cc/kernels/opbridge_local_response_normalization_f32.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, fields
from opbridge.ir import Node
from opbridge.ops.lrn.reference import check_local_response_normalization

HEADER = "cc/kernels/opbridge_local_response_normalization_f32.h"


def emit_local_response_normalization(ctx: EmitContext, node: Node) -> NodeCode:
    attributes = check_local_response_normalization(ctx.graph, node)
    input_tensor = ctx.graph.tensor(node.inputs[0])
    depth = input_tensor.shape[-1]
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_local_response_normalization_f32_params",
        params_symbol,
        fields(
            rows=input_tensor.element_count // depth,
            depth=depth,
            radius_before=attributes.radius_before,
            radius_after=attributes.radius_after,
            bias=FloatValue(attributes.bias),
            alpha=FloatValue(attributes.alpha),
            beta=FloatValue(attributes.beta),
        ),
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall("opbridge_local_response_normalization_f32", params, (source, target))
    return NodeCode(includes=[HEADER], call=call)
