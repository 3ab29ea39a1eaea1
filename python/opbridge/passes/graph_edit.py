# SPDX-License-Identifier: Apache-2.0
"""A working copy of a graph for the rewriting passes: who writes and who reads each tensor, new
tensors and nodes, readers moved from one tensor to another, and the finished graph (nodes put in
an order where each reads only what was written before; dead nodes and unused tensors dropped).

The graph given is never changed: the editor copies its nodes first, so a pass's caller keeps the
original (the pass tests run both through the reference)."""

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.passes.rewrite import remove_dead_nodes, renumber
from opbridge.registry_context import OperatorLookup


class GraphEditor:
    def __init__(self, graph: Graph) -> None:
        self.name = graph.name
        self.notes = graph.notes
        self.tensors: list[Tensor] = list(graph.tensors)
        self.nodes: list[Node] = [
            dataclasses.replace(node, inputs=list(node.inputs), outputs=list(node.outputs)) for node in graph.nodes
        ]
        self.inputs = list(graph.inputs)
        self.outputs = list(graph.outputs)
        self._producers: dict[int, Node] = {}
        self._readers: dict[int, list[Node]] = {}
        self.refresh()

    def refresh(self) -> None:
        """Recomputes producers and readers (after nodes were edited directly)."""
        self._producers = {output: node for node in self.nodes for output in node.outputs}
        self._readers = {}
        for node in self.nodes:
            for index in dict.fromkeys(i for i in node.inputs if i is not None):
                self._readers.setdefault(index, []).append(node)

    def tensor(self, index: int) -> Tensor:
        return self.tensors[index]

    def producer(self, index: int | None) -> Node | None:
        return None if index is None else self._producers.get(index)

    def readers(self, index: int) -> list[Node]:
        return list(self._readers.get(index, []))

    def is_output(self, index: int) -> bool:
        return index in self.outputs

    def read_only_by(self, index: int, node: Node) -> bool:
        """Whether `node` is the one reader of tensor `index`, which is no graph output."""
        readers = self._readers.get(index, [])
        return not self.is_output(index) and len(readers) == 1 and readers[0] is node

    def activations(self, node: Node) -> list[int]:
        """The node's inputs that are no constants (and not omitted)."""
        return [i for i in node.inputs if i is not None and self.tensors[i].data is None]

    def constant_value(self, index: int | None) -> Any:
        """The tensor's data, or None when it is not a constant."""
        return None if index is None else self.tensors[index].data

    def add_tensor(self, template: Tensor, **changes: Any) -> int:
        """A new tensor like `template` with `changes` (shape, name, data ...); returns its index."""
        index = len(self.tensors)
        self.tensors.append(dataclasses.replace(template, index=index, **changes))
        return index

    def add_constant(self, name: str, data: np.ndarray, dtype: DType) -> int:
        index = len(self.tensors)
        values = np.asarray(data, dtype=dtype.numpy)
        self.tensors.append(Tensor(index, name, dtype, tuple(values.shape), data=values))
        return index

    def add_node(
        self, op_type: str, inputs: list[int | None], outputs: list[int], name: str, attributes: Any = None
    ) -> Node:
        node = Node(len(self.nodes), name, op_type, list(inputs), list(outputs), attributes)
        self.nodes.append(node)
        self.refresh()
        return node

    def remove_node(self, node: Node) -> None:
        self.nodes = [n for n in self.nodes if n is not node]
        self.refresh()

    def move_readers(self, old: int, new: int, keep: Node | None = None) -> None:
        """Every reader of tensor `old` (but `keep`) reads `new` instead."""
        for reader in self._readers.get(old, []):
            if reader is not keep:
                reader.inputs = [new if i == old else i for i in reader.inputs]
        self.refresh()

    def finish(self, operators: OperatorLookup | None = None) -> Graph:
        """The edited graph: nodes ordered so that each reads only what was written before (stable
        otherwise), nodes nobody reads dropped (stateful ones stay), unused tensors dropped."""
        available = set(self.inputs) | {t.index for t in self.tensors if t.is_constant or t.is_variable}
        pending = list(self.nodes)
        ordered: list[Node] = []
        while pending:
            for position, node in enumerate(pending):
                if all(i is None or i in available for i in node.inputs):
                    ordered.append(pending.pop(position))
                    available.update(node.outputs)
                    break
            else:
                ordered.extend(pending)  # a cycle would be a bug; the graph's schedule check reports it
                break
        # Filled in after construction: a half-built graph would fail Graph's own checks before the dead
        # nodes are gone (remove_dead_nodes builds, and so checks, the final one).
        graph = Graph(self.name, [], [], [], [])
        graph.tensors, graph.nodes, graph.inputs, graph.outputs = (
            self.tensors,
            renumber(ordered),
            self.inputs,
            self.outputs,
        )
        result = remove_dead_nodes(graph, operators)
        return dataclasses.replace(result, notes=self.notes) if self.notes else result


def rewrite_until_done(
    graph: Graph, step: Callable[[GraphEditor], bool], operators: OperatorLookup | None = None
) -> Graph:
    """`step` (one rewrite on the editor; False when it found none) repeated until it finds none: the
    finished graph, or `graph` itself when no step changed anything."""
    editor = GraphEditor(graph)
    changed = False
    while step(editor):
        changed = True
    return editor.finish(operators) if changed else graph
