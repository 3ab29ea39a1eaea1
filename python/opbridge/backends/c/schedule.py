# SPDX-License-Identifier: Apache-2.0
"""The order of nodes that needs the least memory.

A graph with branches (a residual block's shortcut, two heads) can run its
nodes in many orders; the bytes live at the worst step depend on the order.
This finds the order with the smallest peak: a shortest-path search over the
sets of nodes already run (each set is a state; running a ready node moves
to a bigger set; a path's cost is the largest number of bytes live at any of
its steps, as the memory planner counts them: a node's inputs, its outputs
and everything still to be read). States are expanded cheapest first, so the
first complete set reached is an optimal order. The work is bounded by
`budget` (each state expanded costs the number of nodes times the number
of buffers: a count, so the
same graph gives the same order on every machine); past it, the file's
order stands.

The cost counts every operator as writing a fresh buffer: no scratch (known
only once the operators are resolved) and no in-place outputs (which depend
on the order). So the converter plans both orders in full and keeps the
reordered one only when its arena is strictly smaller.
"""

import dataclasses
import heapq
from collections.abc import Collection

from opbridge.backends.c.memory_plan import alias_groups
from opbridge.ir import Graph

# About 0.2 s on our machines whatever the graph's size.
DEFAULT_SCHEDULE_BUDGET = 3_000_000


@dataclasses.dataclass(frozen=True)
class Schedule:
    order: tuple[int, ...]  # node indices of the input graph, in the order to run them
    peak_bytes: int  # the most bytes live at one step in that order
    file_peak_bytes: int  # the same for the file's order
    complete: bool  # False: the budget ran out and the file's order stands


class _Liveness:
    """Buffer groups (aliases share one), their sizes, producers and readers as bit masks."""

    def __init__(self, graph: Graph, aliasing_nodes: Collection[int] = ()) -> None:
        self.size: dict[int, int] = {}
        group_of: dict[int, int] = {}
        for group in alias_groups(graph, aliasing_nodes=aliasing_nodes):
            key = min(group)
            self.size[key] = max(graph.tensor(i).bytes for i in group)
            for index in group:
                group_of[index] = key
        self.readers = dict.fromkeys(self.size, 0)
        self.writers = dict.fromkeys(self.size, 0)
        for node in graph.nodes:
            for index in node.inputs:
                if index is not None and index in group_of:
                    self.readers[group_of[index]] |= 1 << node.index
            for index in node.outputs:
                self.writers[group_of[index]] |= 1 << node.index
        self.always_written = {group_of[i] for i in graph.inputs}
        self.kept = {group_of[i] for i in graph.outputs}
        self.writes = [{group_of[i] for i in node.outputs} for node in graph.nodes]
        # A node needs the nodes that write the tensors it reads (not the whole group:
        # two RESHAPEs of one tensor share its buffer but do not wait for each other).
        writer_of = {index: node.index for node in graph.nodes for index in node.outputs}
        self.needs = [
            sum({1 << writer_of[i] for i in node.inputs if i is not None and i in writer_of}) for node in graph.nodes
        ]

    def written(self, group: int, done: int) -> bool:
        return group in self.always_written or (self.writers[group] & done) != 0

    def live_after(self, done: int) -> int:
        """Bytes live between steps, once the nodes in `done` have run."""
        return sum(
            size
            for group, size in self.size.items()
            if self.written(group, done) and (group in self.kept or (self.readers[group] & ~done) != 0)
        )

    def during(self, done: int, node: int) -> int:
        """Bytes live while `node` runs after the nodes in `done`: what is live, plus its new outputs."""
        fresh = sum(self.size[g] for g in self.writes[node] if not self.written(g, done))
        return self.live_after(done) + fresh


def file_order_peak(graph: Graph, aliasing_nodes: Collection[int] = ()) -> int:
    """The peak of the file's order: what _Liveness.live_after and .during give step by step,
    summed over the steps at once (each group is live over one range of steps)."""
    liveness = _Liveness(graph, aliasing_nodes)
    steps = len(graph.nodes)
    change = [0] * (steps + 2)  # live_after(k) for k nodes run, k = 0..steps, as differences
    first_writer: dict[int, int] = {}
    for group, size in liveness.size.items():
        writers, readers = liveness.writers[group], liveness.readers[group]
        if writers:
            first_writer[group] = (writers & -writers).bit_length() - 1
        if group in liveness.always_written:
            start = 0
        elif writers:
            start = first_writer[group] + 1
        else:
            continue  # never written: never live
        end = steps if group in liveness.kept else readers.bit_length() - 1
        if start <= end:
            change[start] += size
            change[end + 1] -= size
    live_after, live = [], 0
    for step in range(steps + 1):
        live += change[step]
        live_after.append(live)
    peak = live_after[0]
    for node in range(steps):
        fresh = sum(
            liveness.size[g]
            for g in liveness.writes[node]
            if g not in liveness.always_written and first_writer.get(g) == node
        )
        peak = max(peak, live_after[node] + fresh, live_after[node + 1])
    return peak


def best_schedule(
    graph: Graph, budget: int = DEFAULT_SCHEDULE_BUDGET, aliasing_nodes: Collection[int] = ()
) -> Schedule:
    """The order of smallest peak (the file's order when it is as good, or when out of budget); the
    outputs of `aliasing_nodes` (views of their input) share its buffer."""
    file_order = tuple(range(len(graph.nodes)))
    file_peak = file_order_peak(graph, aliasing_nodes)
    liveness = _Liveness(graph, aliasing_nodes)
    everything = (1 << len(graph.nodes)) - 1
    best = {0: liveness.live_after(0)}
    # (peak so far, order so far as a tuple, the set of nodes run): ties go to the file-like order.
    queue: list[tuple[int, tuple[int, ...], int]] = [(best[0], (), 0)]
    expanded = 0
    # Expanding a state tries every node and counts the live buffers for each.
    state_cost = len(graph.nodes) * max(1, len(liveness.size))
    while queue:
        peak, order, done = heapq.heappop(queue)
        if best.get(done, peak) < peak:
            continue  # reached more cheaply since
        if done == everything:
            if peak < file_peak:
                return Schedule(order, peak, file_peak, True)
            return Schedule(file_order, file_peak, file_peak, True)
        expanded += state_cost
        if expanded > budget:
            break
        for node in range(len(graph.nodes)):
            if done >> node & 1 or liveness.needs[node] & ~done:
                continue
            after = done | 1 << node
            cost = max(peak, liveness.during(done, node), liveness.live_after(after))
            if cost < best.get(after, cost + 1):
                best[after] = cost
                heapq.heappush(queue, (cost, (*order, node), after))
    return Schedule(file_order, file_peak, file_peak, False)


def reorder(graph: Graph, order: tuple[int, ...]) -> Graph:
    """The graph with its nodes run in `order` (renumbered to their new positions)."""
    nodes = [dataclasses.replace(graph.nodes[old], index=new) for new, old in enumerate(order)]
    return Graph(graph.name, graph.tensors, nodes, graph.inputs, graph.outputs)
