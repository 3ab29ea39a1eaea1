# SPDX-License-Identifier: Apache-2.0
"""TFLite's SPLIT: the input cut into num_splits equal parts along a constant axis.

Inputs are (axis, input): the axis comes first, a constant int32 holding one
value in [-rank, rank) (TFLite Micro refuses a run-time axis). Elements are
moved, never changed; an int8 or int16 output keeps the input's quantization
(a part quantized unlike the input is refused: its bytes would mean other
values). The helpers here serve SPLIT_V, PACK and UNPACK too: all four cut or
join a tensor seen as [outer, axis, inner] (cc/kernels/opbridge_split_pack.h).
"""

import math
from collections.abc import Callable, Sequence

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.split.attributes import SPLIT_DTYPES, SplitAttributes


def check_moved_tensors(
    node: Node,
    whole: Tensor,
    whole_role: str,
    parts: Sequence[Tensor | None],
    part_role: str,
    dtypes: tuple[DType, ...],
) -> None:
    """Every part has the whole's dtype (one of `dtypes`) and quantization; UnsupportedTensorError naming
    the node and the tensor otherwise."""
    if whole.dtype not in dtypes:
        raise UnsupportedTensorError(
            f"{node.describe()}: {whole_role} {whole.describe()} is {whole.dtype.value}; {node.op_type} supports "
            f"{', '.join(d.value for d in dtypes)}",
            hint=f"these are the types TFLite Micro's {node.op_type} takes",
        )
    for position, part in enumerate(parts):
        if part is None:
            raise UnsupportedOperatorError(
                f"{node.describe()}: {part_role} {position} is missing", hint="the model is damaged"
            )
        if part.dtype is not whole.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {part_role} {position} {part.describe()} is not {whole.dtype.value} like "
                f"{whole_role} {whole.describe()}",
                hint=f"TFLite Micro's {node.op_type} moves elements of one type",
            )
        if part.quantization != whole.quantization:
            raise UnsupportedTensorError(
                f"{node.describe()}: {part_role} {position} {part.describe()} is quantized "
                f"({part.quantization}) unlike {whole_role} {whole.describe()} ({whole.quantization})",
                hint=f"{node.op_type} moves elements unchanged: give every tensor one scale and zero point",
            )


def normalized_axis(node: Node, axis: int, rank: int, what: str = "axis") -> int:
    """`axis` in [-rank, rank) as a position in [0, rank); UnsupportedOperatorError naming the node otherwise."""
    if not -rank <= axis < rank:
        raise UnsupportedOperatorError(
            f"{node.describe()}: {what} {axis} is outside [{-rank}, {rank})",
            hint="negative axes count from the last dimension",
        )
    return axis % rank


def constant_axis(graph: Graph, node: Node, position: int, rank: int) -> int:
    """The axis a constant int32 input holds (SPLIT's input 0, SPLIT_V's input 2), in [0, rank)."""
    index = node.inputs[position] if position < len(node.inputs) else None
    if index is None:
        raise UnsupportedOperatorError(
            f"{node.describe()}: the axis (input {position}) is missing", hint="the model is damaged"
        )
    tensor = graph.tensor(index)
    if tensor.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: the axis (input {position}) {tensor.describe()} is computed at run time",
            hint="the output shapes depend on it, and TFLite Micro refuses it: make it a constant of the model",
        )
    values = np.asarray(tensor.data).ravel()
    if tensor.dtype is not DType.INT32 or values.size != 1:
        raise UnsupportedTensorError(
            f"{node.describe()}: the axis (input {position}) {tensor.describe()} must be one int32 value",
            hint="TFLite Micro reads the axis as one int32",
        )
    return normalized_axis(node, int(values[0]), rank)


def outer_inner(shape: Sequence[int], axis: int) -> tuple[int, int]:
    """(product of the sizes before `axis`, product of the sizes after it)."""
    return math.prod(shape[:axis]), math.prod(shape[axis + 1 :])


def split_sizes(node: Node, size: int, num_splits: int, outputs: int) -> list[int]:
    """SPLIT's part sizes: num_splits (the output count) equal parts of an axis of `size`."""
    if num_splits != outputs or num_splits < 1:
        raise UnsupportedOperatorError(
            f"{node.describe()}: num_splits {num_splits} for {outputs} outputs",
            hint="SPLIT has one output per part",
        )
    if size % num_splits:
        raise UnsupportedOperatorError(
            f"{node.describe()}: an axis of size {size} does not split into {num_splits} equal parts",
            hint="use SPLIT_V for unequal parts",
        )
    return [size // num_splits] * num_splits


def split_geometry(graph: Graph, node: Node) -> tuple[int, list[int]]:
    """SPLIT's checked (axis, part sizes)."""
    whole = graph.tensor(node.inputs[1]) if len(node.inputs) > 1 and node.inputs[1] is not None else None
    if whole is None:
        raise UnsupportedOperatorError(
            f"{node.describe()}: the input (input 1) is missing", hint="the model is damaged"
        )
    check_moved_tensors(node, whole, "input", graph.node_outputs(node), "output", SPLIT_DTYPES)
    axis = constant_axis(graph, node, 0, len(whole.shape))
    attributes: SplitAttributes = node.attributes or SplitAttributes()
    return axis, split_sizes(node, whole.shape[axis], attributes.num_splits, len(node.outputs))


def cut(values: Array, axis: int, sizes: Sequence[int], outputs: Sequence[Tensor]) -> list[Array]:
    """`values` cut along `axis` into parts of `sizes`, each shaped like its output tensor."""
    bounds = np.cumsum(sizes)[:-1]
    parts = np.split(np.asarray(values), bounds, axis=axis)
    return [
        np.ascontiguousarray(part, dtype=tensor.dtype.numpy).reshape(tensor.shape)
        for part, tensor in zip(parts, outputs, strict=True)
    ]


def split_reference(call: ReferenceCall) -> list[Array]:
    axis, sizes = split_geometry(call.graph, call.node)
    return cut(call.value(1), axis, sizes, call.outputs)


def constant_inputs(*positions: int) -> Callable[[Graph, Node], list[int]]:
    """OperatorDefinition.absorbed_constants for the constants at `positions` (the axis, the sizes): the
    emitted parameters carry their values, the kernel never reads them, so the module need not keep them."""

    def absorbed(graph: Graph, node: Node) -> list[int]:
        indices = [node.inputs[p] for p in positions if p < len(node.inputs)]
        return [i for i in indices if i is not None and graph.tensor(i).is_constant]

    return absorbed
