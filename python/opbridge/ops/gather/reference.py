# SPDX-License-Identifier: Apache-2.0
"""TFLite's GATHER with batch_dims 0: input slices along `axis` picked by positions.

output.shape = input.shape[:axis] + positions.shape + input.shape[axis + 1:],
output[o, p, i] = input[o, positions[p], i]. Positions are int32 or int64, a
graph input or a constant. A position outside [0, input.shape[axis]) makes
TFLite Micro's GATHER fail to invoke; so does this reference (InvalidInputError
naming the node, or UnsupportedTensorError for constant positions, found at
conversion) and the C kernel (OPBRIDGE_STATUS_INVALID_ARGUMENT). Negative
positions are out of range too: TFLite does not wrap them (ONNX does; its
converter normalizes constant indices, see onnx.py). Elements are moved,
never changed: an int8 output keeps the input's quantization.
"""

import math

import numpy as np

from opbridge.errors import InvalidInputError, UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.gather.attributes import GatherAttributes

# The element types the reference and the C kernel take, and the positions' types.
GATHER_DTYPES = (DType.INT8, DType.INT32, DType.FLOAT32)
POSITION_DTYPES = (DType.INT32, DType.INT64)


def gather_axis(node: Node, input_tensor: Tensor) -> int:
    """`node`'s axis in [0, rank), checked; batch_dims other than 0 refused."""
    attributes: GatherAttributes = node.attributes or GatherAttributes()
    if attributes.batch_dims != 0:
        raise UnsupportedOperatorError(
            f"{node.describe()}: batch_dims {attributes.batch_dims} is not supported (only 0)",
            hint="re-export without batch_dims (tf.gather(..., batch_dims=0)), or gather each batch separately",
        )
    rank = len(input_tensor.shape)
    if not -rank <= attributes.axis < rank:
        raise UnsupportedOperatorError(
            f"{node.describe()}: axis {attributes.axis} is outside [{-rank}, {rank}) "
            f"for input {input_tensor.describe()}",
            hint="negative axes count from the last dimension",
        )
    return attributes.axis % rank


def check_gather_tensors(node: Node, input_tensor: Tensor, positions: Tensor, output: Tensor) -> None:
    for role, tensor in (("input", input_tensor), ("output", output)):
        if tensor.dtype not in GATHER_DTYPES or tensor.dtype is not input_tensor.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: GATHER supports "
                f"{', '.join(d.value for d in GATHER_DTYPES)}, the same for input and output",
                hint="cast the tensor to one of these types",
            )
    if positions.dtype not in POSITION_DTYPES:
        raise UnsupportedTensorError(
            f"{node.describe()}: positions {positions.describe()} must be int32 or int64",
            hint="cast the positions to int32",
        )


def out_of_range(values: Array, axis_size: int) -> tuple[int, int] | None:
    """(flat index, value) of the first position outside [0, axis_size), or None."""
    flat = np.asarray(values).ravel()
    bad = np.flatnonzero((flat < 0) | (flat >= axis_size))
    return (int(bad[0]), int(flat[bad[0]])) if bad.size else None


def check_positions(node: Node, input_tensor: Tensor, positions: Tensor, axis: int, values: Array) -> None:
    """Every position in [0, input.shape[axis]); else the error TFLite Micro's failed invoke becomes."""
    size = input_tensor.shape[axis]
    found = out_of_range(values, size)
    if found is None:
        return
    where, value = found
    problem = (
        f"{node.describe()}: positions {positions.describe()} holds {value} at flat index {where}, outside "
        f"[0, {size}) of axis {axis} of input {input_tensor.describe()}"
    )
    if positions.is_constant:
        raise UnsupportedTensorError(
            problem, hint="fix the model's constant positions (TFLite does not wrap negatives)"
        )
    raise InvalidInputError(
        problem,
        hint="TFLite Micro's GATHER fails on it, and the C module returns OPBRIDGE_STATUS_INVALID_ARGUMENT; "
        "negative positions are not wrapped",
    )


def gather_geometry(input_tensor: Tensor, positions: Tensor, axis: int) -> tuple[int, int, int, int]:
    """(outer size, axis size, inner size, position count) of the kernel's [outer, axis, inner] view."""
    shape = tuple(input_tensor.shape)
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :]), positions.element_count


def node_gather_axis(graph: Graph, node: Node) -> int:
    """The checked axis of a node of `graph` (for the emitter); constant positions are range-checked too."""
    input_tensor, positions = [*graph.node_inputs(node), None, None][:2]
    if input_tensor is None or positions is None:
        raise UnsupportedOperatorError(f"{node.describe()}: an input is missing", hint="the model is damaged")
    check_gather_tensors(node, input_tensor, positions, graph.tensor(node.outputs[0]))
    axis = gather_axis(node, input_tensor)
    if positions.data is not None:
        check_positions(node, input_tensor, positions, axis, positions.data)
    return axis


def gather_reference(call: ReferenceCall) -> list[Array]:
    input_tensor, positions, output = call.input_tensor(0), call.input_tensor(1), call.outputs[0]
    check_gather_tensors(call.node, input_tensor, positions, output)
    axis = gather_axis(call.node, input_tensor)
    values = np.asarray(call.value(1))
    check_positions(call.node, input_tensor, positions, axis, values)
    taken = np.take(call.value(0), values.astype(np.int64), axis=axis)
    return [np.ascontiguousarray(taken, dtype=output.dtype.numpy).reshape(output.shape)]


def gather_input_ranges(graph: Graph, node: Node) -> dict[int, tuple[int, int]]:
    """The positions (input 1) index the gathered axis: valid in [0, its size)."""
    input_tensor = graph.tensor(node.inputs[0])
    return {1: (0, input_tensor.shape[gather_axis(node, input_tensor)])}
