# SPDX-License-Identifier: Apache-2.0
"""TFLite's TILE: output axis d is the input's axis d repeated multiples[d] times.

multiples must be a constant int32 or int64 vector of one non-negative entry
per input axis (the output shape depends on it; a 0 gives an empty output).
Elements are moved, never changed: an int8 output keeps the input's
quantization. TFLite Micro has no TILE kernel; this is LiteRT's.
"""

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import Array, ReferenceCall

# The element types the reference and the C kernel take.
TILE_DTYPES = (DType.INT8, DType.INT32, DType.FLOAT32)
MULTIPLES_DTYPES = (DType.INT32, DType.INT64)


def check_tile_dtypes(graph: Graph, node: Node) -> None:
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    for role, tensor in (("input", input_tensor), ("output", output)):
        if tensor.dtype not in TILE_DTYPES or tensor.dtype is not input_tensor.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: TILE supports "
                f"{', '.join(d.value for d in TILE_DTYPES)}, the same for input and output",
                hint="cast the tensor to one of these types",
            )


def constant_multiples(graph: Graph, node: Node) -> tuple[int, ...]:
    """`node`'s multiples, checked: a constant int32 or int64 vector of one entry >= 0 per input axis."""
    input_tensor = graph.tensor(node.inputs[0])
    rank = len(input_tensor.shape)
    index = node.inputs[1] if len(node.inputs) > 1 else None
    if index is None:
        raise UnsupportedOperatorError(
            f"{node.describe()}: the multiples input is missing", hint="the model is damaged"
        )
    multiples = graph.tensor(index)
    if multiples.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: multiples {multiples.describe()} is computed at run time",
            hint="the output shape depends on multiples: make it a constant of the model (fold what computes it)",
        )
    values = [int(v) for v in np.asarray(multiples.data).ravel()]
    if multiples.dtype not in MULTIPLES_DTYPES or multiples.shape != (rank,) or min(values, default=0) < 0:
        raise UnsupportedTensorError(
            f"{node.describe()}: multiples {multiples.describe()} = {values} is not an int32 or int64 vector of "
            f"{rank} entries >= 0 (one per axis of input {input_tensor.describe()})",
            hint="give one non-negative repeat count per input axis",
        )
    return tuple(values)


def tile_reference(call: ReferenceCall) -> list[Array]:
    check_tile_dtypes(call.graph, call.node)
    multiples = constant_multiples(call.graph, call.node)
    output = call.outputs[0]
    tiled = np.tile(call.value(0), multiples) if multiples else call.value(0).copy()
    return [np.ascontiguousarray(tiled, dtype=output.dtype.numpy).reshape(output.shape)]
