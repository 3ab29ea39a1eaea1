# SPDX-License-Identifier: Apache-2.0
"""TFLite's UNPACK: the input taken apart along an axis into its `num` slices, the axis removed.

Negative axes count from the last. Elements are moved, never changed: every
output must have the input's dtype and quantization (an output quantized
otherwise is refused, see ops/split).
"""

from typing import cast

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.split.reference import check_moved_tensors, cut, normalized_axis
from opbridge.ops.unpack.attributes import UNPACK_DTYPES, UnpackAttributes


def unpack_axis(graph: Graph, node: Node) -> int:
    """UNPACK's checked axis of the input, in [0, rank)."""
    index = node.inputs[0] if node.inputs else None
    if index is None:
        raise UnsupportedOperatorError(f"{node.describe()}: the input is missing", hint="the model is damaged")
    whole = graph.tensor(index)
    check_moved_tensors(node, whole, "input", graph.node_outputs(node), "output", UNPACK_DTYPES)
    attributes: UnpackAttributes = node.attributes or UnpackAttributes()
    axis = normalized_axis(node, attributes.axis, len(whole.shape))
    if not attributes.num == len(node.outputs) == whole.shape[axis]:
        raise UnsupportedOperatorError(
            f"{node.describe()}: num {attributes.num} and {len(node.outputs)} outputs for input "
            f"{whole.describe()} along axis {axis}",
            hint="UNPACK has one output per slice along the axis",
        )
    return axis


def unpack_reference(call: ReferenceCall) -> list[Array]:
    axis = unpack_axis(call.graph, call.node)
    return cut(call.value(0), axis, [1] * len(call.outputs), call.outputs)


def whole_input(node: Node) -> int:
    """The input tensor's index (checked present by unpack_axis)."""
    return cast(int, node.inputs[0])
