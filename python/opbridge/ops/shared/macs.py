# SPDX-License-Identifier: Apache-2.0
"""MAC counts (OperatorDefinition.macs) that several operators share.

A MAC is one multiplication of the operator's own arithmetic as its float definition writes it,
with the addition that follows it (docs/adding_an_operator.md, "Operator facts"). Each function takes
(graph, node, output_shape): output 0's shape, the node's own or one tile's in a patch stage.
"""

import math

from opbridge.ir import Graph, Node
from opbridge.ops.definition import MacCount


def _elements(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def per_output_element(count: int) -> MacCount:
    """`count` MACs for each element of output 0 (MUL: 1, RESIZE_BILINEAR: 4)."""

    def macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
        return count * _elements(output_shape)

    return macs


def conv_2d_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Each output element: the filter's taps times the input channels (OHWI filter)."""
    _, taps_height, taps_width, channels = graph.tensor(node.inputs[1]).shape
    return _elements(output_shape) * taps_height * taps_width * channels


def depthwise_conv_2d_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Each output element: the filter's taps on its one input channel ([1, H, W, C] filter)."""
    _, taps_height, taps_width, _ = graph.tensor(node.inputs[1]).shape
    return _elements(output_shape) * taps_height * taps_width


def fully_connected_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Each output element: a dot product over the input's last axis ([units, input size] filter)."""
    return _elements(output_shape) * graph.tensor(node.inputs[1]).shape[-1]
