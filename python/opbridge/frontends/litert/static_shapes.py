# SPDX-License-Identifier: Apache-2.0
"""Shape arithmetic on static shapes, folded at conversion time.

Keras 3 keeps a free batch size, so TensorFlow's converter writes a Flatten
or a Reshape as SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE: the new shape is
computed from the input's at run time. On an MCU every shape is static (the
batch is 1), so each SHAPE becomes a constant, and the nodes that compute on
it (their inputs constant now, at least one of them derived from a SHAPE)
are evaluated by their reference implementations into constants too. The
RESHAPE then has a constant shape and stays a view. Nothing else is folded:
the converter has already folded the model's other constants, and folding
more would change which nodes a user sees.
"""

import dataclasses

import numpy as np

from opbridge.ir import Graph, Node
from opbridge.passes.constant_folding import fold_constants
from opbridge.passes.rewrite import renumber
from opbridge.registry_context import OperatorLookup


def fold_static_shapes(graph: Graph, operators: OperatorLookup) -> Graph:
    """The graph with each SHAPE of a statically shaped tensor, and the arithmetic it feeds, made constants."""
    if not any(node.op_type == "SHAPE" for node in graph.nodes):
        return graph
    tensors = list(graph.tensors)
    outputs = set(graph.outputs)
    derived: set[int] = set()
    kept: list[Node] = []
    for node in graph.nodes:
        source = tensors[node.inputs[0]] if node.op_type == "SHAPE" and node.inputs else None
        if source is None or -1 in source.shape or outputs.intersection(node.outputs):
            kept.append(node)
            continue
        (index,) = node.outputs
        output = tensors[index]
        tensors[index] = dataclasses.replace(output, data=np.array(source.shape, dtype=output.dtype.numpy))
        derived.add(index)
    # Tensor indices stay as they are; fold_constants drops what is no longer read.
    graph = Graph(graph.name, tensors, renumber(kept), graph.inputs, graph.outputs)

    def from_shapes(node: Node) -> bool:
        if any(index in derived for index in node.inputs if index is not None):
            derived.update(node.outputs)
            return True
        return False

    return fold_constants(graph, operators, select=from_shapes)
