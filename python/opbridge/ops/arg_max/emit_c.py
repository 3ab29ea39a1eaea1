# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX -> opbridge_arg_max_f32 or opbridge_arg_max_s8 (cc/kernels/opbridge_arg_min_max.h); ARG_MIN's
emitter is the same with opbridge_arg_min_*."""

from collections.abc import Callable

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.arg_max.reference import arg_min_max_layout

HEADER = "cc/kernels/opbridge_arg_min_max.h"
INT32_MAX = 2**31 - 1


def arg_min_max_emitter(kernel_prefix: str) -> Callable[[EmitContext, Node], NodeCode]:
    def emit(ctx: EmitContext, node: Node) -> NodeCode:
        graph = ctx.graph
        layout = arg_min_max_layout(graph, node)
        input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
        if input_tensor.element_count > INT32_MAX:
            raise UnsupportedTensorError(
                f"{node.describe()}: input {input_tensor.describe()} has more than {INT32_MAX} elements",
                hint="split the tensor",
            )
        suffix = "f32" if input_tensor.dtype is DType.FLOAT32 else "s8"
        params_symbol = ctx.local_symbol(node, "params")
        params = ParamStruct(
            "opbridge_arg_min_max_params",
            params_symbol,
            fields(
                outer_size=layout.outer_size,
                axis_size=layout.axis_size,
                inner_size=layout.inner_size,
                output_is_int64=1 if output.dtype is DType.INT64 else 0,
            ),
        )
        call = KernelCall(
            f"{kernel_prefix}_{suffix}", params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0]))
        )
        return NodeCode(includes=[HEADER], call=call)

    return emit


emit_arg_max = arg_min_max_emitter("opbridge_arg_max")
