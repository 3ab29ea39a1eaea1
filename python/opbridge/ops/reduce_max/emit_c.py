# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX -> opbridge_reduce_max_f32 or opbridge_reduce_max_s8 (cc/kernels/opbridge_reduce_max.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields, int_array
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.mean.reference import mean_axes
from opbridge.ops.reduce_max.reference import require_equal_quantization
from opbridge.ops.shared.float32 import require_float32

HEADER = "cc/kernels/opbridge_reduce_max.h"
MAX_RANK = 6  # OPBRIDGE_REDUCE_MAX_MAX_RANK


def emit_reduce_max(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        require_float32(node, [("input", input_tensor), ("output", output)])
        kernel = "opbridge_reduce_max_f32"
    else:
        require_equal_quantization(node, input_tensor, output)
        kernel = "opbridge_reduce_max_s8"
    rank = len(input_tensor.shape)
    if rank > MAX_RANK:
        raise UnsupportedTensorError(f"{node.describe()}: rank {rank} > {MAX_RANK}", hint=f"reshape to {MAX_RANK}-D")
    if input_tensor.element_count == 0:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} is empty", hint="give every axis a size"
        )
    axes, _ = mean_axes(graph, node)
    lead = MAX_RANK - rank
    reduce = [0] * lead + [1 if axis in axes else 0 for axis in range(rank)]
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_reduce_max_params",
        params_symbol,
        fields(
            input_shape=int_array((1,) * lead + input_tensor.shape),
            reduce=int_array(reduce),
            output_size=output.element_count,
        ),
    )
    call = KernelCall(kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[HEADER], call=call)
