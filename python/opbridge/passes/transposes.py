# SPDX-License-Identifier: Apache-2.0
"""Removes TRANSPOSE nodes that undo each other, also across element-wise ops.

The ONNX frontend wraps each NHWC convolution or pool in transposes
(NCHW -> NHWC before, NHWC -> NCHW after). Two rewrites, repeated until
nothing changes, take most of them out again:

- TRANSPOSE(p) then TRANSPOSE(inverse of p): readers of the second read the
  first one's input;
- TRANSPOSE(p) -> an element-wise op -> TRANSPOSE(inverse of p), where the
  element-wise op (its definition's layout is Layout.ELEMENTWISE: RELU, ADD of
  two such transposes of equal shape, a plugin's op that says so, ...) is
  read only by that last transpose (or by copies of it): the op reads the
  untransposed inputs and writes the last transpose's output itself.

Transposes nobody reads any more are dropped. A transpose that writes a
graph output stays.
"""

import copy
import dataclasses

from opbridge.ir import Graph, Node
from opbridge.ops.definition import is_elementwise
from opbridge.passes.rewrite import remove_dead_nodes
from opbridge.registry_context import OperatorLookup


def _permutation(graph: Graph, node: Node) -> tuple[int, ...] | None:
    if node.op_type != "TRANSPOSE" or len(node.inputs) < 2 or node.inputs[1] is None:
        return None
    perm = graph.tensor(node.inputs[1]).data
    return None if perm is None else tuple(int(p) for p in perm.ravel())


def _undo(first: tuple[int, ...], second: tuple[int, ...]) -> bool:
    return len(first) == len(second) and all(first[second[i]] == i for i in range(len(second)))


def _rewrite_once(graph: Graph, operators: OperatorLookup | None) -> bool:
    producer = {output: node for node in graph.nodes for output in node.outputs}
    readers: dict[int, list[Node]] = {}
    for node in graph.nodes:
        for i in node.inputs:
            if i is not None:
                readers.setdefault(i, []).append(node)
    for node in graph.nodes:
        second = _permutation(graph, node)
        if second is None or node.outputs[0] in graph.outputs or node.inputs[0] is None:
            continue
        before = producer.get(node.inputs[0])
        if before is None:
            continue
        first = _permutation(graph, before)
        if first is not None and _undo(first, second):
            if not readers.get(node.outputs[0]):
                continue  # already bypassed; removed as dead below
            for reader in readers[node.outputs[0]]:
                reader.inputs = [before.inputs[0] if i == node.outputs[0] else i for i in reader.inputs]
            return True
        if operators is None or not is_elementwise(operators.get(before.op_type)):
            continue
        middle = before.outputs[0]
        # Every reader of the op is this same transpose (one, or several copies of it: a value read by
        # two NHWC ops gets one transpose each).
        twins = readers.get(middle, [])
        if middle in graph.outputs or any(
            _permutation(graph, twin) != second or twin.outputs[0] in graph.outputs for twin in twins
        ):
            continue
        operands = [producer.get(i) if i is not None else None for i in before.inputs]
        perms = [None if p is None else _permutation(graph, p) for p in operands]
        shapes = {graph.tensor(i).shape for i in before.inputs if i is not None}
        if len(shapes) == 1 and all(p is not None and _undo(p, second) for p in perms):
            before.inputs = [p.inputs[0] for p in operands]  # type: ignore[union-attr]
            before.outputs = [node.outputs[0]]  # the op now writes what the transpose wrote
            for twin in twins:
                for reader in readers.get(twin.outputs[0], []):
                    reader.inputs = [node.outputs[0] if i == twin.outputs[0] else i for i in reader.inputs]
                graph.nodes.remove(twin)
            return True
    return False


def cancel_transposes(graph: Graph, operators: OperatorLookup | None = None) -> Graph:
    """The graph with undone transposes removed (see the module docstring); `graph` is edited in place.
    `operators` (the OperatorRegistry) says which ops are element-wise; without it none is."""
    changed = False
    while _rewrite_once(graph, operators):
        changed = True
    if not changed:
        return graph
    # An element-wise op now writes what a later transpose wrote: order the nodes by what they read.
    return remove_dead_nodes(_reschedule(graph), operators)


def _reschedule(graph: Graph) -> Graph:
    """Nodes in an order where each reads only what was written before (stable otherwise)."""
    available = set(graph.inputs) | {t.index for t in graph.tensors if t.is_constant}
    pending = list(graph.nodes)
    ordered: list[Node] = []
    while pending:
        for position, node in enumerate(pending):
            if all(i is None or i in available for i in node.inputs):
                ordered.append(pending.pop(position))
                available.update(node.outputs)
                break
        else:
            ordered.extend(pending)  # a cycle would be a bug; check_schedule reports it
            break
    # Not checked here; remove_dead_nodes builds (and so checks) the final graph.
    result = copy.copy(graph)
    result.nodes = [dataclasses.replace(node, index=position) for position, node in enumerate(ordered)]
    return result
