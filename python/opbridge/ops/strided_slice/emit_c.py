# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE -> opbridge_strided_slice, the slice arithmetic done here (4-D, left-padded)."""

import numpy as np

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields, int_array
from opbridge.ir import Node
from opbridge.ops.shared.emit_elementwise import INT_KERNELS_HEADER
from opbridge.ops.strided_slice.reference import MAX_RANK, node_slice_plan


def emit_strided_slice(ctx: EmitContext, node: Node) -> NodeCode:
    plan = node_slice_plan(ctx.graph, node)
    input_tensor = ctx.graph.tensor(node.inputs[0])
    shape = tuple(input_tensor.shape)
    if 0 in plan.counts:
        return NodeCode(statements=["/* The slice is empty: no element moves. */", "status = 0;"])
    # Element strides of the input (row-major).
    element_strides = [int(np.prod(shape[axis + 1 :], dtype=np.int64)) for axis in range(len(shape))]
    start = sum(begin * stride for begin, stride in zip(plan.starts, element_strides, strict=True))
    steps = [step * stride for step, stride in zip(plan.strides, element_strides, strict=True)]
    pad = MAX_RANK - len(shape)
    counts = [1] * pad + list(plan.counts)
    steps = [0] * pad + steps
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_strided_slice_params",
        params_symbol,
        fields(
            element_size=input_tensor.dtype.itemsize,
            output_shape=int_array(counts),
            input_start=start,
            input_steps=int_array(steps),
        ),
    )
    call = KernelCall("opbridge_strided_slice", params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[INT_KERNELS_HEADER], call=call)
