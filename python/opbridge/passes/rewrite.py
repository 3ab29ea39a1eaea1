# SPDX-License-Identifier: Apache-2.0
"""Small graph edits the passes share: renumbering nodes, dropping dead nodes and unused tensors."""

import dataclasses
from typing import Any

from opbridge.ir import Graph, Tensor
from opbridge.registry_context import OperatorLookup


def renumber(nodes: list[Any]) -> list[Any]:
    return [dataclasses.replace(node, index=position) for position, node in enumerate(nodes)]


def remove_unused_tensors(graph: Graph) -> Graph:
    """Drops tensors no node and no graph input or output refers to, and renumbers the rest in order."""
    used = set(graph.inputs) | set(graph.outputs)
    for node in graph.nodes:
        used.update(i for i in node.inputs if i is not None)
        used.update(node.outputs)
    order = [t.index for t in graph.tensors if t.index in used]
    new_index = {old: new for new, old in enumerate(order)}
    tensors: list[Tensor] = [dataclasses.replace(graph.tensors[old], index=new_index[old]) for old in order]
    nodes = [
        dataclasses.replace(
            node,
            inputs=[None if i is None else new_index[i] for i in node.inputs],
            outputs=[new_index[i] for i in node.outputs],
        )
        for node in graph.nodes
    ]
    return Graph(
        graph.name, tensors, nodes, [new_index[i] for i in graph.inputs], [new_index[i] for i in graph.outputs]
    )


def remove_dead_nodes(graph: Graph, operators: OperatorLookup | None = None) -> Graph:
    """Drops nodes whose outputs nobody reads (and are not graph outputs), repeatedly; stateful ops stay."""
    nodes = list(graph.nodes)
    while True:
        read = set(graph.outputs)
        for node in nodes:
            read.update(i for i in node.inputs if i is not None)

        kept = [node for node in nodes if read.intersection(node.outputs) or _stateful(operators, node.op_type)]
        if len(kept) == len(nodes):
            break
        nodes = kept
    return remove_unused_tensors(Graph(graph.name, graph.tensors, renumber(nodes), graph.inputs, graph.outputs))


def _stateful(operators: OperatorLookup | None, op_type: str) -> bool:
    definition = operators.get(op_type) if operators is not None else None
    return definition is not None and definition.stateful
