"""Removes pairs of TRANSPOSE nodes that undo each other.

The ONNX frontend wraps each NHWC convolution or pool in transposes
(NCHW -> NHWC before, NHWC -> NCHW after), so two such ops in a row meet as
TRANSPOSE(to NCHW) then TRANSPOSE(to NHWC): readers of the second are
rewired to the first one's input, and transposes nobody reads any more are
dropped. A transpose that writes a graph output stays.
"""

from typing import Any

from opbridge.ir import Graph, Node
from opbridge.passes.rewrite import remove_dead_nodes


def _permutation(graph: Graph, node: Node) -> tuple[int, ...] | None:
    if len(node.inputs) < 2 or node.inputs[1] is None:
        return None
    perm = graph.tensor(node.inputs[1]).data
    return None if perm is None else tuple(int(p) for p in perm.ravel())


def cancel_transposes(graph: Graph, operators: Any = None) -> Graph:
    producer = {output: node for node in graph.nodes for output in node.outputs}
    replacement: dict[int, int] = {}
    for node in graph.nodes:
        node.inputs = [replacement.get(i, i) if i is not None else None for i in node.inputs]
        if node.op_type != "TRANSPOSE" or node.outputs[0] in graph.outputs:
            continue
        before = producer.get(node.inputs[0]) if node.inputs[0] is not None else None
        if before is None or before.op_type != "TRANSPOSE":
            continue
        first, second = _permutation(graph, before), _permutation(graph, node)
        if first is None or second is None or len(first) != len(second):
            continue
        if all(first[second[i]] == i for i in range(len(second))):
            replacement[node.outputs[0]] = before.inputs[0]  # type: ignore[assignment]
    if not replacement:
        return graph
    return remove_dead_nodes(graph, operators)
