# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE -> opbridge_transpose, a gather along a 6-D lattice worked out here.

The output axes are listed with the input element stride each one walks;
axes of size 1 are dropped and neighbours that walk the input contiguously
merged (so NHWC <-> NCHW becomes a 3-D gather), then left-padded to 6.
"""

import numpy as np

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields, int_array
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Node
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.transpose.reference import check_transpose_dtypes, constant_permutation

# OPBRIDGE_TRANSPOSE_MAX_RANK in cc/kernels/opbridge_kernels_f32.h.
MAX_RANK = 6


def transpose_lattice(shape: tuple[int, ...], perm: tuple[int, ...]) -> list[tuple[int, int]]:
    """(output size, input element stride) per output axis, size-1 axes dropped and contiguous runs merged."""
    strides = [int(np.prod(shape[axis + 1 :], dtype=np.int64)) for axis in range(len(shape))]
    merged: list[tuple[int, int]] = []
    for axis in perm:
        size, stride = int(shape[axis]), strides[axis]
        if size == 1:
            continue
        if merged and merged[-1][1] == stride * size:
            outer_size, _ = merged.pop()
            size *= outer_size
        merged.append((size, stride))
    return merged


def emit_transpose(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    check_transpose_dtypes(graph, node)
    perm = constant_permutation(graph, node)
    input_tensor = graph.tensor(node.inputs[0])
    if input_tensor.element_count == 0:
        return NodeCode(statements=["/* The tensor is empty: no element moves. */", "status = 0;"])
    lattice = transpose_lattice(tuple(input_tensor.shape), perm)
    if len(lattice) > MAX_RANK:
        raise UnsupportedTensorError(
            f"{node.describe()}: transposing input {input_tensor.describe()} by {list(perm)} needs a "
            f"{len(lattice)}-D gather; the kernel takes at most {MAX_RANK} dimensions",
            hint="reshape to fewer dimensions around the TRANSPOSE",
        )
    lattice = [(1, 0)] * (MAX_RANK - len(lattice)) + lattice
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_transpose_params",
        params_symbol,
        fields(
            element_size=input_tensor.dtype.itemsize,
            output_shape=int_array(size for size, _ in lattice),
            input_strides=int_array(stride for _, stride in lattice),
        ),
    )
    call = KernelCall("opbridge_transpose", params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[F32_KERNELS_HEADER], call=call)
