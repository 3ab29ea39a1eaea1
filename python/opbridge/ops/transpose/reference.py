# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's TRANSPOSE: output axis i is input axis perm[i].

perm must be a constant int32 vector, a permutation of 0 .. rank - 1 (TFLite
rejects anything else). Elements are moved, never changed, so any element
type works; the quantization (if any) is the input's.
"""

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import Array, ReferenceCall

# The element types the C kernel moves (every type the C backend has).
TRANSPOSE_DTYPES = (
    DType.BOOL,
    DType.INT8,
    DType.UINT8,
    DType.INT16,
    DType.INT32,
    DType.INT64,
    DType.UINT32,
    DType.UINT64,
    DType.FLOAT32,
)


def is_permutation(values: list[int], rank: int) -> bool:
    return sorted(values) == list(range(rank))


def constant_permutation(graph: Graph, node: Node) -> tuple[int, ...]:
    """`node`'s perm, checked: a constant int32 vector holding each input axis once."""
    input_tensor = graph.tensor(node.inputs[0])
    rank = len(input_tensor.shape)
    perm_index = node.inputs[1] if len(node.inputs) > 1 else None
    if perm_index is None:
        raise UnsupportedOperatorError(f"{node.describe()}: the perm input is missing", hint="the model is damaged")
    perm = graph.tensor(perm_index)
    if perm.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: perm {perm.describe()} is computed at run time",
            hint="the output shape depends on perm: make it a constant of the model (fold what computes it)",
        )
    values = [int(v) for v in np.asarray(perm.data).ravel()]
    if perm.dtype is not DType.INT32 or len(perm.shape) != 1 or not is_permutation(values, rank):
        raise UnsupportedTensorError(
            f"{node.describe()}: perm {perm.describe()} = {values} is not an int32 permutation of the "
            f"{rank} axes of input {input_tensor.describe()}",
            hint=f"perm must list each of 0 .. {rank - 1} once",
        )
    return tuple(values)


def check_transpose_dtypes(graph: Graph, node: Node) -> None:
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    for role, tensor in (("input", input_tensor), ("output", output)):
        if tensor.dtype not in TRANSPOSE_DTYPES or tensor.dtype is not input_tensor.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: TRANSPOSE supports "
                f"{', '.join(d.value for d in TRANSPOSE_DTYPES)}, the same for input and output",
                hint="cast the tensor to one of these types",
            )


def transpose_reference(call: ReferenceCall) -> list[Array]:
    check_transpose_dtypes(call.graph, call.node)
    perm = constant_permutation(call.graph, call.node)
    output = call.outputs[0]
    moved = np.transpose(call.value(0), perm)
    return [np.ascontiguousarray(moved, dtype=output.dtype.numpy).reshape(output.shape)]
