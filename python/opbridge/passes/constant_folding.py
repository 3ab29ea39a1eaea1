# SPDX-License-Identifier: Apache-2.0
"""Constant folding: a node whose inputs are all constants is replaced by its outputs' values.

Values come from the op's reference implementation (Operation.evaluate), so
a folded graph computes exactly what the unfolded one does. Not folded:
stateful ops (their outputs change from run to run), nodes without inputs,
and nodes that write a graph output (a model's outputs stay computed).
Constants no longer read by any node are dropped afterwards.
"""

import copy
import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.errors import OpbridgeError, OperatorPluginError
from opbridge.ir import Graph, Node
from opbridge.ops.operation import Operation
from opbridge.passes.rewrite import remove_unused_tensors, renumber
from opbridge.registry_context import OperatorLookup
from opbridge.transforms import Transform


def fold_constants(graph: Graph, operators: OperatorLookup, select: Callable[[Node], bool] | None = None) -> Graph:
    """The graph with every foldable node evaluated into constants (see the module docstring).

    `select`, when given, is asked of each node in order, before it is checked for folding: only the nodes it
    accepts may fold (the LiteRT frontend folds the shape arithmetic after SHAPE and nothing else).
    """
    tensors = list(graph.tensors)
    # What the references read (graph.tensor(i)): the tensors as folded so far.
    # copy.copy skips Graph's schedule check, which a half-rewritten graph would fail.
    current = copy.copy(graph)
    current.tensors = tensors
    kept = []
    outputs = set(graph.outputs)
    for node in graph.nodes:
        definition = operators.get(node.op_type)
        inputs = [None if i is None else tensors[i] for i in node.inputs]
        foldable = (
            (select is None or select(node))
            and definition is not None
            and not definition.stateful
            and any(t is not None for t in inputs)
            and all(t is None or t.is_constant for t in inputs)
            and not outputs.intersection(node.outputs)
        )
        if not foldable:
            kept.append(node)
            continue
        try:
            values = Operation(current, node, definition).evaluate([None if t is None else t.data for t in inputs])
        except OpbridgeError:
            raise
        except Exception as error:
            raise OperatorPluginError(
                f"{node.describe()}: constant folding failed in its reference implementation: "
                f"{type(error).__name__}: {error}"
            ) from error
        for index, value in zip(node.outputs, values, strict=True):
            tensor = tensors[index]
            data = np.asarray(value, dtype=tensor.dtype.numpy)
            shape = tuple(tensor.shape) if -1 not in tensor.shape else data.shape
            tensors[index] = dataclasses.replace(tensor, data=data.reshape(shape), shape=shape)
    return remove_unused_tensors(Graph(graph.name, tensors, renumber(kept), graph.inputs, graph.outputs))


class FoldConstants(Transform):
    """`transforms: [{name: fold_constants}]`: constant folding through the ops' reference implementations."""

    NAME = "fold_constants"
    OPTIONS = None

    def apply(self, graph: Graph) -> Graph:
        return fold_constants(graph, self.context.operators)
