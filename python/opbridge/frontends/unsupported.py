# SPDX-License-Identifier: Apache-2.0
"""The error for a model's unsupported nodes, shared by the LiteRT and ONNX frontends.

A frontend collects every node it cannot import, then raises one error that
groups them by operator, most frequent first, with a count and the first few
node names of each group:

    model.onnx: 245 node(s) use 2 operator(s) opbridge does not support (most frequent first):
        ConstantOfShape x243 (first: node_1, node_7, node_9, ...)
        Selu x2 (selu_a, selu_b)

so a model with hundreds of such nodes gives a short message, and a model
with a few still names each node.
"""

import dataclasses
from collections.abc import Sequence

from opbridge.errors import UnsupportedOperatorError

NODES_NAMED_PER_OPERATOR = 3


@dataclasses.dataclass(frozen=True)
class UnsupportedNode:
    """A node a frontend cannot import.

    `operator` is what nodes are grouped by (e.g. "ConstantOfShape",
    "CONV_2D version 9", "custom operator 'SignalWindow' (key SIGNALWINDOW)"),
    `node` names the node in the model ("node 3", "Selu_3"), and `reason`,
    when given, says why the operator cannot be imported; nodes with the
    same operator and reason form one group.
    """

    operator: str
    node: str
    reason: str = ""


def unsupported_operators_error(
    source: str,
    nodes: Sequence[UnsupportedNode],
    *,
    hint: str,
    error: type[UnsupportedOperatorError] = UnsupportedOperatorError,
) -> UnsupportedOperatorError:
    """One error of class `error` (UnsupportedOperatorError or a subclass, such as the schemas'
    UnknownSchemaError) for all of `nodes` (in model order), grouped by operator and reason."""
    groups: dict[tuple[str, str], list[str]] = {}
    for node in nodes:
        groups.setdefault((node.operator, node.reason), []).append(node.node)
    # Most frequent first; equal counts keep the order of their first node in the model.
    ordered = sorted(groups.items(), key=lambda group: -len(group[1]))
    lines = []
    for (operator, reason), names in ordered:
        shown = ", ".join(names[:NODES_NAMED_PER_OPERATOR])
        listing = f"first: {shown}, ..." if len(names) > NODES_NAMED_PER_OPERATOR else shown
        lines.append(f"{operator} x{len(names)} ({listing})" + (f": {reason}" if reason else ""))
    order = " (most frequent first)" if len(ordered) > 1 else ""
    return error(
        f"{source}: {len(nodes)} node(s) use {len(ordered)} operator(s) opbridge does not support{order}:\n    "
        + "\n    ".join(lines),
        hint=hint,
    )
