# SPDX-License-Identifier: Apache-2.0
"""TFLite's SPLIT_V: the input cut into parts of the sizes size_splits gives, along a constant axis.

Inputs are (input, size_splits, axis), the last two constants: size_splits an
int32 or int64 vector of num_splits sizes >= 0, one of which may be -1 (the
rest of the axis); axis one int32 value in [-rank, rank). TFLite Micro cuts by
the output shapes, which size_splits fixes. Elements are moved, never changed;
an int8 or int16 output keeps the input's quantization (see ops/split).
"""

from typing import cast

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.split.reference import check_moved_tensors, constant_axis, cut
from opbridge.ops.split_v.attributes import SIZE_SPLITS_DTYPES, SPLIT_V_DTYPES, SplitVAttributes


def resolve_sizes(sizes: list[int], total: int) -> list[int] | str:
    """size_splits with its -1 (if any) resolved to the rest of an axis of `total`, or why they do not fit."""
    unknown = [i for i, s in enumerate(sizes) if s == -1]
    if len(unknown) > 1 or any(s < -1 for s in sizes):
        return f"size_splits {sizes} holds a size below -1 or more than one -1"
    known = sum(s for s in sizes if s != -1)
    if unknown:
        if known > total:
            return f"size_splits {sizes} exceed the axis size {total}"
        sizes = list(sizes)
        sizes[unknown[0]] = total - known
    elif known != total:
        return f"size_splits {sizes} do not add up to the axis size {total}"
    return sizes


def split_v_geometry(graph: Graph, node: Node) -> tuple[int, list[int]]:
    """SPLIT_V's checked (axis, part sizes)."""
    inputs = [*node.inputs, None, None, None][:3]
    if inputs[0] is None or inputs[1] is None:
        raise UnsupportedOperatorError(f"{node.describe()}: an input is missing", hint="the model is damaged")
    whole = graph.tensor(inputs[0])
    check_moved_tensors(node, whole, "input", graph.node_outputs(node), "output", SPLIT_V_DTYPES)
    axis = constant_axis(graph, node, 2, len(whole.shape))
    size_splits = graph.tensor(inputs[1])
    if size_splits.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: size_splits (input 1) {size_splits.describe()} is computed at run time",
            hint="the output shapes depend on it: make it a constant of the model",
        )
    attributes: SplitVAttributes = node.attributes or SplitVAttributes()
    values = [int(v) for v in np.asarray(size_splits.data).ravel()]
    count = len(node.outputs)
    if size_splits.dtype not in SIZE_SPLITS_DTYPES or attributes.num_splits != count or len(values) != count:
        raise UnsupportedTensorError(
            f"{node.describe()}: size_splits {size_splits.describe()} = {values} and num_splits "
            f"{attributes.num_splits} must be int32 or int64 sizes, one per output ({count})",
            hint="SPLIT_V has one output per size",
        )
    sizes = resolve_sizes(values, whole.shape[axis])
    if isinstance(sizes, str):
        raise UnsupportedTensorError(f"{node.describe()}: {sizes}", hint="fix the model's size_splits")
    return axis, sizes


def split_v_reference(call: ReferenceCall) -> list[Array]:
    axis, sizes = split_v_geometry(call.graph, call.node)
    return cut(call.value(0), axis, sizes, call.outputs)


def whole_input(node: Node) -> int:
    """The input tensor's index (checked present by split_v_geometry)."""
    return cast(int, node.inputs[0])
