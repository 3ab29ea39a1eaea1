# SPDX-License-Identifier: Apache-2.0
"""The built-in graph passes, which every conversion runs after the schema check (whatever the
frontend; ConvertArgs.graph_passes turns them off): each a registered Transform, each bit-exact (the
rewritten graph's reference computes what the original's does; passes/pipeline_test.py draws graphs
and checks it) but qdq_islands, which puts float arithmetic on int8 kernels. In order:

- qdq_islands (passes/qdq_islands.py): float32 ops between DEQUANTIZE and QUANTIZE run in int8;
- cancel_transposes (passes/transposes.py): the model NHWC end to end;
- remove_reshapes (passes/reshapes.py): views merged, identities and unit-axis transposes gone;
- fold_pads (passes/pad_folding.py): PADs into the convolutions' explicit padding;
- fuse_activations (passes/activation_fusion.py): RELU and RELU6 into their producers.

Each may open work for another (a fused RELU no longer sits between two transposes), so the list runs
again until a round changes nothing. `convert` and `analyze` report what each pass removed.
"""

import collections
import dataclasses

from opbridge.ir import Graph
from opbridge.passes.activation_fusion import FuseActivations
from opbridge.passes.pad_folding import FoldPads
from opbridge.passes.qdq_islands import QdqIslands
from opbridge.passes.reshapes import RemoveReshapes
from opbridge.passes.transposes import CancelTransposes
from opbridge.registry_context import RegistryContext
from opbridge.transforms import Transform, apply_transform

GRAPH_PASSES: tuple[type[Transform], ...] = (QdqIslands, CancelTransposes, RemoveReshapes, FoldPads, FuseActivations)

# A round can only remove nodes or fold attributes, so a few rounds reach the fixed point; the bound
# guards against a pass that would undo another's work forever.
MAX_ROUNDS = 8


@dataclasses.dataclass(frozen=True)
class PassEffect:
    """What one graph pass did over all rounds: the nodes it removed and added, by operator."""

    name: str
    removed: dict[str, int]
    added: dict[str, int]

    @property
    def nodes_removed(self) -> int:
        return sum(self.removed.values()) - sum(self.added.values())

    def describe(self) -> str:
        parts = [f"{count} {op}" for op, count in sorted(self.removed.items())]
        text = f"{self.name} removed {', '.join(parts) or 'no node'}"
        if self.added:
            text += " and added " + ", ".join(f"{count} {op}" for op, count in sorted(self.added.items()))
        return text


def run_graph_passes(graph: Graph, context: RegistryContext) -> tuple[Graph, tuple[PassEffect, ...]]:
    """The graph after the built-in passes, and what each pass that changed it did (in pass order)."""
    removed: dict[str, collections.Counter[str]] = {p.NAME: collections.Counter() for p in GRAPH_PASSES}
    added: dict[str, collections.Counter[str]] = {p.NAME: collections.Counter() for p in GRAPH_PASSES}
    changed: set[str] = set()
    for _ in range(MAX_ROUNDS):
        round_changed = False
        for pass_class in GRAPH_PASSES:
            result = apply_transform(pass_class(), graph, context)
            if result is graph:
                continue
            before = collections.Counter(node.op_type for node in graph.nodes)
            after = collections.Counter(node.op_type for node in result.nodes)
            removed[pass_class.NAME] += before - after
            added[pass_class.NAME] += after - before
            changed.add(pass_class.NAME)
            graph, round_changed = result, True
        if not round_changed:
            break
    effects = tuple(
        PassEffect(p.NAME, dict(removed[p.NAME]), dict(added[p.NAME])) for p in GRAPH_PASSES if p.NAME in changed
    )
    return graph, effects


def passes_note(effects: tuple[PassEffect, ...]) -> str:
    """The conversion summary's line on the graph passes (empty when none changed the graph)."""
    if not effects:
        return ""
    return "graph passes: " + "; ".join(effect.describe() for effect in effects)
