# SPDX-License-Identifier: Apache-2.0
"""TFLite's PACK: values_count tensors of one shape stacked along a new axis of the output.

The axis counts in the output's rank (inputs' rank + 1); negative counts
from the last. Elements are moved, never changed: every input must have the
output's dtype and quantization (an input quantized otherwise is refused, see
ops/split).
"""

import numpy as np

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.pack.attributes import PACK_DTYPES, PackAttributes
from opbridge.ops.split.reference import check_moved_tensors, normalized_axis


def pack_axis(graph: Graph, node: Node) -> int:
    """PACK's checked axis of the output, in [0, output rank)."""
    output = graph.tensor(node.outputs[0])
    inputs = graph.node_inputs(node)
    check_moved_tensors(node, output, "output", inputs, "input", PACK_DTYPES)
    attributes: PackAttributes = node.attributes or PackAttributes()
    if attributes.values_count != len(inputs):
        raise UnsupportedOperatorError(
            f"{node.describe()}: values_count {attributes.values_count} for {len(inputs)} inputs",
            hint="PACK stacks one input per value",
        )
    return normalized_axis(node, attributes.axis, len(output.shape))


def pack_reference(call: ReferenceCall) -> list[Array]:
    axis = pack_axis(call.graph, call.node)
    output = call.outputs[0]
    stacked = np.stack([np.asarray(call.value(i)) for i in range(len(call.inputs))], axis=axis)
    return [np.ascontiguousarray(stacked, dtype=output.dtype.numpy).reshape(output.shape)]
