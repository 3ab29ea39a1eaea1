# SPDX-License-Identifier: Apache-2.0
"""Plans every activation of a graph into one arena, ahead of time.

Each activation (graph inputs and every tensor a node writes; constants
live in flash) gets a lifetime in schedule steps: from the node that writes
it (graph inputs: before the first node) to the last node that reads it
(graph outputs: to the end). Reshape-like nodes alias their output to their
input, so the two share one buffer and one lifetime.

Offsets come from `placement.place`: several greedy orders and fits, then,
when none reaches the liveness bound, an exact search within a budget.
A node's scratch lives only while that node runs; a node's persistent
state lives for the whole module (it is reset by the module's init and
kept from run to run), so nothing else ever shares its bytes.
The plan reports the arena size and the liveness lower bound: the largest
sum of bytes live at any one step, which no plan can beat.
"""

import dataclasses
import functools
import heapq
import itertools
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from opbridge.backends.c.placement import DEFAULT_SEARCH_BUDGET, Request, liveness_bound, place
from opbridge.errors import ArenaBudgetError
from opbridge.ir import Graph, Node

DEFAULT_ALIGNMENT = 4
STATE_ALIGNMENT = 8


@dataclasses.dataclass(frozen=True)
class Buffer:
    """One region of the arena: tensors (aliases share one), or one node's scratch."""

    tensors: tuple[int, ...]
    offset: int
    size: int
    first_step: int  # -1: written before the first node (a graph input)
    last_step: int
    scratch_of_node: int | None = None
    persistent_of_node: int | None = None
    # (tensor, bytes from the buffer's start) of tensors that are a slice of it (a CONCATENATION's inputs).
    tensor_offsets: tuple[tuple[int, int], ...] = ()

    def overlaps_in_time(self, other: "Buffer") -> bool:
        return self.first_step <= other.last_step and other.first_step <= self.last_step


@dataclasses.dataclass(frozen=True)
class MemoryPlan:
    arena_bytes: int
    lower_bound_bytes: int
    alignment: int
    buffers: tuple[Buffer, ...]
    # The bound if every operator wrote a fresh buffer (no in-place outputs, no concatenation slices):
    # what those save.
    lower_bound_without_in_place_bytes: int = 0
    strategy: str = ""  # which placement won (placement.place)
    optimal: bool = False  # proven: at the bound, or the exact search ran to the end
    largest_first_bytes: int = 0  # the arena of TFLite Micro's greedy plan, for comparison
    # Linker sections for the module's static arena and its constant tables
    # (None: the toolchain's defaults, .bss and .rodata).
    arena_section: str | None = None
    constants_section: str | None = None
    # The patch-based stage at step 0, if any (aot/patch_stage.py, PatchStage.to_dict).
    patch_stage: dict[str, Any] | None = None

    def scratch_offset(self, node_index: int) -> int:
        buffer = self._index[1].get(node_index)
        if buffer is None:
            raise KeyError(f"node {node_index} has no scratch buffer")
        return buffer.offset

    def persistent_offset(self, node_index: int) -> int:
        buffer = self._index[2].get(node_index)
        if buffer is None:
            raise KeyError(f"node {node_index} has no persistent state")
        return buffer.offset

    def buffer_of(self, tensor_index: int) -> Buffer:
        buffer = self._index[0].get(tensor_index)
        if buffer is None:
            raise KeyError(f"tensor {tensor_index} is not in the arena (a constant?)")
        return buffer

    @functools.cached_property
    def _index(self) -> tuple[dict[int, Buffer], dict[int, Buffer], dict[int, Buffer]]:
        """The first buffer of each tensor, of each node's scratch and of each node's state (the plan
        is frozen and its buffers a tuple: this never goes stale)."""
        tensors: dict[int, Buffer] = {}
        scratch: dict[int, Buffer] = {}
        state: dict[int, Buffer] = {}
        for buffer in self.buffers:
            for index in buffer.tensors:
                tensors.setdefault(index, buffer)
            if buffer.scratch_of_node is not None:
                scratch.setdefault(buffer.scratch_of_node, buffer)
            if buffer.persistent_of_node is not None:
                state.setdefault(buffer.persistent_of_node, buffer)
        return tensors, scratch, state

    def offset_of(self, tensor_index: int) -> int:
        buffer = self.buffer_of(tensor_index)
        return buffer.offset + dict(buffer.tensor_offsets).get(tensor_index, 0)

    def to_json(self, graph: Graph) -> str:
        return json.dumps(
            {
                "arena_bytes": self.arena_bytes,
                "lower_bound_bytes": self.lower_bound_bytes,
                "lower_bound_without_in_place_bytes": self.lower_bound_without_in_place_bytes,
                "alignment": self.alignment,
                "strategy": self.strategy,
                "optimal": self.optimal,
                "largest_first_arena_bytes": self.largest_first_bytes,
                "arena_section": self.arena_section,
                "constants_section": self.constants_section,
                "patch_stage": self.patch_stage,
                "tensors": [
                    {
                        "index": index,
                        "name": graph.tensor(index).name,
                        "offset": self.offset_of(index),
                        "bytes": graph.tensor(index).bytes,
                        "first_step": buffer.first_step,
                        "last_step": buffer.last_step,
                        "aliases": [i for i in buffer.tensors if i != index],
                    }
                    for buffer in sorted(self.buffers, key=lambda b: b.offset)
                    for index in buffer.tensors
                ],
                "scratch": [
                    {"node": buffer.scratch_of_node, "offset": buffer.offset, "bytes": buffer.size}
                    for buffer in self.buffers
                    if buffer.scratch_of_node is not None
                ],
                "persistent": [
                    {"node": buffer.persistent_of_node, "offset": buffer.offset, "bytes": buffer.size}
                    for buffer in self.buffers
                    if buffer.persistent_of_node is not None
                ],
            },
            indent=2,
        )

    def to_svg(self, graph: Graph, title: str = "") -> str:
        """The arena over time as a self-contained SVG: one bar per buffer, across
        the steps it lives and up the bytes it holds (scratch and state shaded)."""
        steps = len(graph.nodes)
        width, height, left, bottom, top = 720, 420, 70, 40, 30
        plot_width, plot_height = width - left - 20, height - bottom - top
        column = plot_width / (steps + 2)  # step -1 (inputs) .. steps (outputs)
        scale = plot_height / max(self.arena_bytes, 1)
        heading = title or f"{graph.name}: arena {self.arena_bytes} B, bound {self.lower_bound_bytes} B"
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
            f"<title>{_xml(heading)}</title>",
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
            f'<text x="{left}" y="18" font-size="13">{_xml(heading)}</text>',
            f'<rect x="{left}" y="{top}" width="{plot_width}" height="{plot_height}" fill="none" stroke="#888"/>',
        ]
        for buffer in sorted(self.buffers, key=lambda b: (b.offset, b.first_step)):
            x = left + (buffer.first_step + 1) * column
            y = top + plot_height - (buffer.offset + buffer.size) * scale
            if buffer.scratch_of_node is not None:
                fill, label = "#f4a259", f"scratch of node {buffer.scratch_of_node}"
            elif buffer.persistent_of_node is not None:
                fill, label = "#bc4b51", f"state of node {buffer.persistent_of_node}"
            else:
                fill = "#5b8e7d" if len(buffer.tensors) == 1 else "#8cb369"
                label = ", ".join(graph.tensor(i).name for i in buffer.tensors)
            bar_width = (buffer.last_step - buffer.first_step + 1) * column
            parts.append(
                f'<rect class="buffer" x="{x:.1f}" y="{y:.1f}" width="{bar_width:.1f}" '
                f'height="{max(buffer.size * scale, 0.5):.1f}" fill="{fill}" stroke="white" stroke-width="0.5">'
                f"<title>{_xml(label)}: {buffer.size} B at offset {buffer.offset}, steps "
                f"{buffer.first_step}..{buffer.last_step}</title></rect>"
            )
        bound_y = top + plot_height - self.lower_bound_bytes * scale
        parts += [
            f'<line x1="{left}" y1="{bound_y:.1f}" x2="{left + plot_width}" y2="{bound_y:.1f}" stroke="#c00" '
            'stroke-dasharray="4 3"/>',
            f'<text x="{left - 4}" y="{bound_y + 4:.1f}" text-anchor="end" fill="#c00">bound</text>',
            f'<text x="{left - 4}" y="{top + plot_height + 4}" text-anchor="end">0 B</text>',
            f'<text x="{left - 4}" y="{top + 10}" text-anchor="end">{self.arena_bytes} B</text>',
            f'<text x="{left + plot_width / 2}" y="{height - 8}" text-anchor="middle">'
            f"schedule step (inputs, nodes 0..{steps - 1}, outputs); bars: buffers at their offsets</text>",
            "</svg>",
        ]
        return "\n".join(parts) + "\n"

    def to_table(self, graph: Graph) -> str:
        proof = "optimal" if self.optimal else "not proven optimal"
        saved = self.lower_bound_without_in_place_bytes - self.lower_bound_bytes
        in_place = f"; in-place outputs and slices save {saved} bytes of it" if saved > 0 else ""
        lines = [
            f"arena: {self.arena_bytes} bytes (liveness lower bound {self.lower_bound_bytes} bytes{in_place})",
            f"placement: {self.strategy} ({proof})",
            f"{'offset':>8} {'bytes':>8} {'steps':>9}  tensor",
        ]
        for buffer in sorted(self.buffers, key=lambda b: (b.offset, b.first_step)):
            inside = dict(buffer.tensor_offsets)
            names = ", ".join(
                graph.tensor(i).describe() + (f" at +{inside[i]}" if i in inside else "") for i in buffer.tensors
            )
            if buffer.scratch_of_node is not None:
                names = f"scratch of {graph.nodes[buffer.scratch_of_node].describe()}"
            if buffer.persistent_of_node is not None:
                names = f"persistent state of {graph.nodes[buffer.persistent_of_node].describe()}"
            lines.append(f"{buffer.offset:>8} {buffer.size:>8} {buffer.first_step:>4}..{buffer.last_step:<3}  {names}")
        return "\n".join(lines)


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _align(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def alias_groups(
    graph: Graph,
    in_place_nodes: Collection[int] = (),
    output_slices: Mapping[int, Sequence[int]] | None = None,
    alignment: int = 1,
    aliasing_nodes: Collection[int] = (),
) -> list[list[int]]:
    """Activations grouped so that each group shares one buffer: the outputs of `aliasing_nodes`
    (views: RESHAPE, SQUEEZE) with their input, in-place outputs with the input they overwrite,
    and a CONCATENATION's inputs with its output (alias_layout)."""
    return alias_layout(graph, in_place_nodes, output_slices, alignment, aliasing_nodes)[0]


def alias_layout(
    graph: Graph,
    in_place_nodes: Collection[int] = (),
    output_slices: Mapping[int, Sequence[int]] | None = None,
    alignment: int = 1,
    aliasing_nodes: Collection[int] = (),
) -> tuple[list[list[int]], dict[int, int]]:
    """The alias groups, and the byte offset inside its group's buffer of each tensor that is a
    slice of it (the inputs of `output_slices` nodes, written by their producers in place)."""
    return _layout(_GraphFacts(graph, aliasing_nodes), in_place_nodes, output_slices, alignment)


class _GraphFacts:
    """What the alias layout reads of a graph, gathered once: the planner asks many what-if
    questions of one graph (_worth_running_in_place), and the graph does not change meanwhile.
    Gather them again after changing the graph."""

    def __init__(self, graph: Graph, aliasing_nodes: Collection[int] = ()) -> None:
        self.graph = graph
        # The nodes whose output 0 is a view of input 0 (AotOperator.aliases_input: RESHAPE, SQUEEZE).
        self.aliasing_nodes = frozenset(aliasing_nodes)
        self.activations = [tensor.index for tensor in graph.tensors if not tensor.is_constant]
        self.is_activation = [not tensor.is_constant for tensor in graph.tensors]
        self.bytes = [tensor.bytes for tensor in graph.tensors]
        self.itemsize = [tensor.dtype.itemsize for tensor in graph.tensors]
        self.last_read: dict[int, int] = {}
        for node in graph.nodes:
            for index in node.inputs:
                if index is not None and self.is_activation[index]:
                    self.last_read[index] = node.index
        self.graph_inputs, self.graph_outputs = set(graph.inputs), set(graph.outputs)
        self.written = {index for node in graph.nodes for index in node.outputs}


class _Groups:
    """Union-find over the activations, with what _in_place_input asks of a whole group kept at
    its root (members, whether one is a graph input or output, the last read, the most bytes),
    so that each question costs the same however large the group."""

    def __init__(self, facts: _GraphFacts) -> None:
        self.root = {index: index for index in facts.activations}
        io = facts.graph_inputs | facts.graph_outputs
        self.members = {index: [index] for index in facts.activations}
        self.holds_io = {index: index in io for index in facts.activations}
        self.last_read = {index: facts.last_read.get(index, -1) for index in facts.activations}
        self.most_bytes = {index: facts.bytes[index] for index in facts.activations}

    def find(self, index: int) -> int:
        root = self.root
        top = index
        while root[top] != top:
            top = root[top]
        while root[index] != top:  # path compression: the roots stay the same
            root[index], index = top, root[index]
        return top

    def join(self, index: int, target: int) -> None:
        """Puts `index`'s group into the group whose root is `target`."""
        old = self.find(index)
        if old == target:
            return
        self.root[old] = target
        self.members[target] += self.members.pop(old)
        self.holds_io[target] = self.holds_io[target] or self.holds_io.pop(old)
        self.last_read[target] = max(self.last_read[target], self.last_read.pop(old))
        self.most_bytes[target] = max(self.most_bytes[target], self.most_bytes.pop(old))


def _layout(
    facts: _GraphFacts,
    in_place_nodes: Collection[int],
    output_slices: Mapping[int, Sequence[int]] | None,
    alignment: int,
) -> tuple[list[list[int]], dict[int, int]]:
    groups = _Groups(facts)
    offsets = _join_groups(facts, groups, in_place_nodes, output_slices, alignment)
    by_root: dict[int, list[int]] = {}
    for tensor_index in groups.root:
        by_root.setdefault(groups.find(tensor_index), []).append(tensor_index)
    return list(by_root.values()), offsets


def _join_groups(
    facts: _GraphFacts,
    groups: _Groups,
    in_place_nodes: Collection[int],
    output_slices: Mapping[int, Sequence[int]] | None,
    alignment: int,
) -> dict[int, int]:
    """Joins reshape-like outputs, in-place outputs and slices into their groups; returns the
    slices' offsets (alias_layout)."""
    graph_inputs, graph_outputs = facts.graph_inputs, facts.graph_outputs
    for node in facts.graph.nodes:
        source = node.inputs[0] if node.inputs else None
        if node.index in facts.aliasing_nodes and source is not None and source in groups.root:
            output = node.outputs[0]
            # A graph input and a graph output sharing bytes would make the caller's view confusing; copy then.
            if not (source in graph_inputs and output in graph_outputs):
                groups.join(output, groups.find(source))
        elif node.index in in_place_nodes and len(node.outputs) == 1:
            target = _in_place_input(facts, node, groups)
            if target is not None:
                groups.join(node.outputs[0], target)
    return _place_slices(facts, groups, output_slices or {}, alignment)


def _place_slices(
    facts: _GraphFacts,
    groups: _Groups,
    output_slices: Mapping[int, Sequence[int]],
    alignment: int,
) -> dict[int, int]:
    """Merges each slicing node's inputs into its output's group at their slices' offsets, when every
    input but the constants is a tensor of its own (no alias, not the caller's, written by a node,
    read there for the last time) at an aligned offset. Later nodes first, so a concatenation
    feeding another nests in it."""
    graph = facts.graph
    offsets: dict[int, int] = {}
    graph_inputs, graph_outputs = facts.graph_inputs, facts.graph_outputs
    find = groups.find

    def alone(index: int) -> bool:
        return len(groups.members[find(index)]) == 1

    for node_index in sorted(output_slices, reverse=True):
        node = graph.nodes[node_index]
        output = node.outputs[0]
        if output not in groups.root or output in graph_inputs:
            continue
        base = offsets.get(output, 0)
        # Constant inputs are copied into their slices by the node; the activations are placed there.
        places = [
            (index, base + offset)
            for index, offset in zip(node.inputs, output_slices[node_index], strict=True)
            if index is None or facts.is_activation[index]
        ]
        if places and all(
            index is not None
            and index in groups.root
            and index in facts.written
            and index not in graph_inputs
            and index not in graph_outputs
            and node.inputs.count(index) == 1
            # Not read after the node: the output's bytes may be overwritten from there on (in place).
            and facts.last_read.get(index) == node_index
            and place % max(alignment, facts.itemsize[index]) == 0
            and find(index) != find(output)
            and alone(index)
            for index, place in places
        ):
            for index, place in places:
                assert index is not None  # checked above
                groups.join(index, find(output))
                offsets[index] = place
    return offsets


def _in_place_input(facts: _GraphFacts, node: Node, groups: _Groups) -> int | None:
    """The group whose buffer `node`'s output may take over: an input of the same
    bytes and element width whose whole group is read for the last time here and
    holds no graph input (the caller's data) or graph output."""
    output = node.outputs[0]
    output_bytes = facts.bytes[output]
    for index in node.inputs:
        if index is None or index not in groups.root:
            continue
        if facts.bytes[index] != output_bytes or facts.itemsize[index] != facts.itemsize[output]:
            continue
        group_root = groups.find(index)
        if groups.holds_io[group_root]:
            continue
        if groups.last_read[group_root] > node.index:
            continue  # read again later: it does not die here
        if groups.most_bytes[group_root] != output_bytes:
            continue
        return group_root
    return None


def tensor_lifetimes(graph: Graph) -> dict[int, tuple[int, int]]:
    """Each activation's first and last step (-1: a model input; the node count: a model output)."""
    first = {index: -1 for index in graph.inputs}
    last = {index: -1 for index in graph.inputs}
    for step, node in enumerate(graph.nodes):
        for index in node.outputs:
            first.setdefault(index, step)
            last[index] = max(last.get(index, step), step)
        for index in node.inputs:
            if index is not None and not graph.tensor(index).is_constant:
                last[index] = max(last.get(index, step), step)
    end = len(graph.nodes)
    for index in graph.outputs:
        last[index] = end
    return {index: (first[index], last[index]) for index in first}


def _tensor_buffers(
    graph: Graph,
    groups: list[list[int]],
    lifetimes: dict[int, tuple[int, int]],
    offsets: Mapping[int, int] | None = None,
) -> list[Buffer]:
    """One unplaced buffer per group of activations, live from its first write to its last read
    (`offsets`: where slices sit inside their group's buffer)."""
    offsets = offsets or {}
    buffers = []
    for group in groups:
        live = [lifetimes[i] for i in group if i in lifetimes]
        if not live:
            continue  # written by nothing and read by nothing
        size = max(offsets.get(i, 0) + graph.tensor(i).bytes for i in group)
        first_step, last_step = min(first for first, _ in live), max(last for _, last in live)
        sliced = tuple(sorted((i, offsets[i]) for i in group if offsets.get(i)))
        buffers.append(Buffer(tuple(sorted(group)), 0, size, first_step, last_step, tensor_offsets=sliced))
    return buffers


def _scratch_and_state(
    graph: Graph, scratch_bytes: Mapping[int, int] | None, persistent_bytes: Mapping[int, int] | None
) -> list[Buffer]:
    """Unplaced buffers for each node's scratch (live while it runs) and persistent state (always)."""
    extra: list[Buffer] = []
    for node_index, size in sorted((scratch_bytes or {}).items()):
        if size > 0:
            extra.append(Buffer((), 0, size, node_index, node_index, scratch_of_node=node_index))
    for node_index, size in sorted((persistent_bytes or {}).items()):
        if size > 0:
            everywhere = (-1, len(graph.nodes))
            extra.append(Buffer((), 0, size, *everywhere, persistent_of_node=node_index))
    return extra


def _with_in_place_scratch(
    graph: Graph,
    groups: list[list[int]],
    offsets: Mapping[int, int],
    scratch_bytes: Mapping[int, int] | None,
    in_place_scratch_bytes: Mapping[int, int] | None,
) -> dict[int, int]:
    """Each node's scratch, plus its in-place scratch when its output did land on an input
    (the same group, at the same offset: EmitContext.shares_buffer)."""
    scratch = dict(scratch_bytes or {})
    if not in_place_scratch_bytes:
        return scratch
    group_of = {index: position for position, group in enumerate(groups) for index in group}

    def place(index: int) -> tuple[int | None, int]:
        return group_of.get(index), offsets.get(index, 0)

    for node_index, size in in_place_scratch_bytes.items():
        node = graph.nodes[node_index]
        output = node.outputs[0]
        if output in group_of and any(place(i) == place(output) for i in node.inputs if i is not None):
            scratch[node_index] = scratch.get(node_index, 0) + size
    return scratch


def arena_lower_bound(
    graph: Graph,
    scratch_bytes: Mapping[int, int] | None = None,
    persistent_bytes: Mapping[int, int] | None = None,
    in_place_nodes: Collection[int] = (),
    in_place_scratch_bytes: Mapping[int, int] | None = None,
    output_slices: Mapping[int, Sequence[int]] | None = None,
    alignment: int = DEFAULT_ALIGNMENT,
    aliasing_nodes: Collection[int] = (),
) -> int:
    """The liveness bound plan_memory would report, without placing anything (to compare
    graphs cheaply, e.g. patch stages)."""
    return _lower_bound(
        _GraphFacts(graph, aliasing_nodes),
        tensor_lifetimes(graph),
        scratch_bytes,
        persistent_bytes,
        in_place_nodes,
        in_place_scratch_bytes,
        output_slices,
        alignment,
    )


def _lower_bound(
    facts: _GraphFacts,
    lifetimes: dict[int, tuple[int, int]],
    scratch_bytes: Mapping[int, int] | None,
    persistent_bytes: Mapping[int, int] | None,
    in_place_nodes: Collection[int],
    in_place_scratch_bytes: Mapping[int, int] | None,
    output_slices: Mapping[int, Sequence[int]] | None,
    alignment: int,
) -> int:
    """arena_lower_bound of a graph whose facts and lifetimes are gathered already: the same
    buffers (_tensor_buffers, _with_in_place_scratch, _scratch_and_state), summed step by step
    without building them."""
    graph = facts.graph
    groups = _Groups(facts)
    offsets = _join_groups(facts, groups, in_place_nodes, output_slices, alignment)
    events: dict[int, int] = {}

    def add(size: int, first_step: int, last_step: int) -> None:
        events[first_step] = events.get(first_step, 0) + size
        events[last_step + 1] = events.get(last_step + 1, 0) - size

    tensor_bytes = facts.bytes
    for members in groups.members.values():
        live = [lifetimes[i] for i in members if i in lifetimes]
        if live:
            size = max(offsets.get(i, 0) + tensor_bytes[i] for i in members)
            add(size, min(first for first, _ in live), max(last for _, last in live))
    scratch = dict(scratch_bytes or {})
    for node_index, size in (in_place_scratch_bytes or {}).items():
        node = graph.nodes[node_index]
        output = node.outputs[0]
        if output in groups.root:
            place = (groups.find(output), offsets.get(output, 0))
            if any(
                i in groups.root and (groups.find(i), offsets.get(i, 0)) == place for i in node.inputs if i is not None
            ):
                scratch[node_index] = scratch.get(node_index, 0) + size
    for node_index, size in scratch.items():
        if size > 0:
            add(size, node_index, node_index)
    for size in (persistent_bytes or {}).values():
        if size > 0:
            add(size, -1, len(graph.nodes))
    live = best = 0
    for step in sorted(events):
        live += events[step]
        best = max(best, live)
    return best


def _worth_running_in_place(
    graph: Graph,
    scratch_bytes: Mapping[int, int] | None,
    persistent_bytes: Mapping[int, int] | None,
    in_place_nodes: Collection[int],
    in_place_scratch_bytes: Mapping[int, int] | None,
    output_slices: Mapping[int, Sequence[int]] | None,
    alignment: int,
    aliasing_nodes: Collection[int],
) -> set[int]:
    """The in-place nodes to use. One that needs working rows to run in place (in_place_scratch_bytes,
    a depthwise convolution) copies them and runs its kernel row by row, which costs time: it keeps
    a fresh output unless running in place lowers the bound.

    Each candidate asks what the bound would be without it: _InPlaceWhatIf answers from the
    current layout, replaying only the nodes whose groups the change reaches (with slices, which
    nest from the last node back, it lays the graph out again for each candidate)."""
    chosen = set(in_place_nodes)
    costly = sorted(node for node in chosen if (in_place_scratch_bytes or {}).get(node))
    if not costly:
        return chosen
    facts, lifetimes = _GraphFacts(graph, aliasing_nodes), tensor_lifetimes(graph)
    if output_slices:

        def bound(nodes: set[int]) -> int:
            return _lower_bound(
                facts,
                lifetimes,
                scratch_bytes,
                persistent_bytes,
                nodes,
                in_place_scratch_bytes,
                output_slices,
                alignment,
            )

        best = bound(chosen)
        for node in costly:
            trial = chosen - {node}
            trial_bound = bound(trial)
            if trial_bound <= best:
                chosen, best = trial, trial_bound
        return chosen
    what_if = _InPlaceWhatIf(facts, lifetimes, scratch_bytes, persistent_bytes, in_place_scratch_bytes or {}, chosen)
    for node in costly:
        what_if.drop_if_no_worse(node)
    return what_if.chosen


class _InPlaceWhatIf:
    """The liveness bound of the layout of `chosen` in-place nodes (no slices), and what it would
    be with one node fewer, without laying the whole graph out again.

    Every join of the layout puts a node's fresh output into the group of one of its inputs (or
    of its source, for reshapes), so a group at any step is its final members produced by then.
    Dropping node k changes the groups k's output would have shared; a later node's decision can
    change only if it reads a tensor of a changed ("dirty") group, so only those nodes are
    replayed, against the dirty groups rebuilt as they were at that step (the others are as in
    the layout). The bound then changes only over the steps the dirty groups, and the replayed
    nodes' in-place scratch, cover."""

    def __init__(
        self,
        facts: _GraphFacts,
        lifetimes: dict[int, tuple[int, int]],
        scratch_bytes: Mapping[int, int] | None,
        persistent_bytes: Mapping[int, int] | None,
        in_place_scratch_bytes: Mapping[int, int],
        chosen: set[int],
    ) -> None:
        self.facts, self.lifetimes = facts, lifetimes
        self.scratch_bytes, self.persistent_bytes = scratch_bytes or {}, persistent_bytes or {}
        self.in_place_scratch_bytes = in_place_scratch_bytes
        self.chosen = set(chosen)
        graph = facts.graph
        self.produced = dict.fromkeys(facts.activations, -1)  # the node that writes each activation
        for node in graph.nodes:
            for index in node.outputs:
                if index in self.produced and self.produced[index] < 0:
                    self.produced[index] = node.index
        self.readers: dict[int, list[int]] = {}
        for node in graph.nodes:
            for index in node.inputs:
                if index is not None and index in self.produced:
                    self.readers.setdefault(index, []).append(node.index)
        self._lay_out()

    def _lay_out(self) -> None:
        """The layout of `chosen` from scratch: the groups, which outputs joined one, the live bytes per step."""
        facts, graph = self.facts, self.facts.graph
        groups = _Groups(facts)
        self.joined: set[int] = set()  # outputs their node put into an input's group
        for node in graph.nodes:
            target = _join_target(facts, node, groups, self.chosen)
            if target is not None:
                groups.join(node.outputs[0], target)
                self.joined.add(node.outputs[0])
        self.root = {index: groups.find(index) for index in facts.activations}
        self.members = groups.members
        steps = len(graph.nodes)
        change = [0] * (steps + 3)  # step s at s + 1: from -1 (the inputs) to the node count (the outputs)

        def add(size: int, first: int, last: int) -> None:
            change[first + 1] += size
            change[last + 2] -= size

        for members in self.members.values():
            buffer = self._buffer(members)
            if buffer is not None:
                add(*buffer)
        for node_index, size in self.scratch_bytes.items():
            add(size, node_index, node_index)
        for node_index in self.in_place_scratch_bytes:
            add(self._extra(node_index, self._same_group), node_index, node_index)
        for size in self.persistent_bytes.values():
            add(size, -1, steps)
        self.live = list(itertools.accumulate(change[:-1]))
        self.best = max(self.live)
        self.before = list(itertools.accumulate(self.live, max))  # the most live up to each step
        self.after = list(itertools.accumulate(reversed(self.live), max))[::-1]  # from each step on

    def _same_group(self, first: int, second: int) -> bool:
        return self.root[first] == self.root[second]

    def _buffer(self, members: Sequence[int]) -> tuple[int, int, int] | None:
        """(size, first step, last step) of a group's buffer (_tensor_buffers); None: never live."""
        live = [self.lifetimes[i] for i in members if i in self.lifetimes]
        if not live:
            return None
        size = max(self.facts.bytes[i] for i in members)
        return size, min(first for first, _ in live), max(last for _, last in live)

    def _extra(self, node_index: int, same_group: Callable[[int, int], bool]) -> int:
        """The node's in-place scratch if its output shares an input's group (_with_in_place_scratch)."""
        node = self.facts.graph.nodes[node_index]
        output = node.outputs[0]
        if output in self.produced and any(
            i is not None and i in self.produced and same_group(i, output) for i in node.inputs
        ):
            return self.in_place_scratch_bytes.get(node_index, 0)
        return 0

    def drop_if_no_worse(self, node_index: int) -> None:
        """Drops `node_index` from the in-place nodes when the bound without it is no higher."""
        outputs = self.facts.graph.nodes[node_index].outputs
        if len(outputs) != 1 or outputs[0] not in self.joined:
            self.chosen.discard(node_index)  # it does not run in place: the same layout and bound
            return
        if self.bound_without(node_index) <= self.best:
            self.chosen.discard(node_index)
            self._lay_out()

    def bound_without(self, dropped: int) -> int:
        """The bound with `dropped` out of the in-place nodes (the layout stays as it is)."""
        graph = self.facts.graph
        trial = self.chosen - {dropped}
        state = _TrialGroups(self)
        state.queue(dropped)
        replayed = []
        while state.pending:
            node_index = heapq.heappop(state.pending)
            node = graph.nodes[node_index]
            state.now = node_index
            replayed.append(node_index)
            target = _join_target(self.facts, node, state, trial)
            output = node.outputs[0] if node.outputs else None
            if output is None or output not in self.produced:
                continue
            unchanged = (target is None and output not in self.joined) or (
                target is not None and target < 0 and output in self.joined and ~target == self.root[output]
            )
            if unchanged:
                continue  # the same decision into a group the change has not reached
            state.make_dirty(self.root[output])  # the output's group in the layout loses it
            if target is None:
                state.start(output)
            else:
                state.add(output, state.spell_out(target))
        steps = len(graph.nodes)
        change: dict[int, int] = {}

        def add(size: int, first: int, last: int) -> None:
            change[first] = change.get(first, 0) + size
            change[last + 1] = change.get(last + 1, 0) - size

        for root in state.dirty_roots:
            buffer = self._buffer(self.members[root])
            if buffer is not None:
                add(-buffer[0], buffer[1], buffer[2])
        for members in state.groups.values():
            buffer = self._buffer(members)
            if buffer is not None:
                add(*buffer)
        for node_index in replayed:
            if node_index in self.in_place_scratch_bytes:
                difference = self._extra(node_index, state.same_group) - self._extra(node_index, self._same_group)
                if difference:
                    add(difference, node_index, node_index)
        if not any(change.values()):
            return self.best
        low, high = min(change), min(max(change), steps + 1)  # only steps low .. high - 1 change
        best = self.before[low] if low >= 0 else 0  # live[s + 1] holds step s
        if high <= steps:
            best = max(best, self.after[high + 1])
        delta = 0
        for step in range(low, high):
            delta += change.get(step, 0)
            best = max(best, self.live[step + 1] + delta)
        return best


def _join_target(
    facts: _GraphFacts, node: Node, groups: "_Groups | _TrialGroups", chosen: Collection[int]
) -> int | None:
    """The group (its key in `groups`) `node`'s output joins, as _join_groups decides; None: a buffer of its own."""
    source = node.inputs[0] if node.inputs else None
    if node.index in facts.aliasing_nodes and source is not None and source in groups.root:
        if not (source in facts.graph_inputs and node.outputs[0] in facts.graph_outputs):
            return groups.find(source)
        return None
    if node.index in chosen and len(node.outputs) == 1:
        return _in_place_input(facts, node, groups)  # type: ignore[arg-type]
    return None


class _TrialGroups:
    """The groups of _InPlaceWhatIf.bound_without, asked as _Groups is: a dirty group by its key (a
    tensor of it), spelled out; any other by ~its root in the layout, with the members it had at
    step `now` (the layout's members produced before it)."""

    def __init__(self, what_if: _InPlaceWhatIf) -> None:
        self.what_if = what_if
        self.root = what_if.produced  # `index in root`: an activation
        self.now = 0
        self.group_of: dict[int, int] = {}  # dirty tensor -> the key of its group
        self.groups: dict[int, list[int]] = {}  # key -> members
        self.dirty_roots: set[int] = set()  # the layout's groups the trial ones replace
        self.pending: list[int] = []  # nodes to replay (a heap)
        self.queued: set[int] = set()
        facts = what_if.facts
        io = facts.graph_inputs | facts.graph_outputs
        self.holds_io = _Aggregate(self, lambda members: any(i in io for i in members))
        self.last_read = _Aggregate(self, lambda members: max(facts.last_read.get(i, -1) for i in members))
        self.most_bytes = _Aggregate(self, lambda members: max(facts.bytes[i] for i in members))

    def find(self, index: int) -> int:
        key = self.group_of.get(index)
        return key if key is not None else ~self.what_if.root[index]

    def members(self, key: int) -> list[int]:
        if key >= 0:
            return self.groups[key]
        produced = self.what_if.produced
        return [i for i in self.what_if.members[~key] if produced[i] < self.now]

    def queue(self, node_index: int) -> None:
        if node_index not in self.queued:
            self.queued.add(node_index)
            heapq.heappush(self.pending, node_index)

    def _readers_later(self, index: int) -> None:
        for reader in self.what_if.readers.get(index, ()):
            if reader > self.now:
                self.queue(reader)

    def make_dirty(self, root: int) -> int | None:
        """Spells out the layout's group `root` as it is now; the key of its trial group (None: empty)."""
        if root in self.dirty_roots:
            return None
        self.dirty_roots.add(root)
        members = self.members(~root)
        if not members:
            return None
        key = members[0]
        self.groups[key] = members
        for member in members:
            self.group_of[member] = key
            self._readers_later(member)
        return key

    def spell_out(self, key: int) -> int:
        """The key of the dirty group `key` names (spelling out a clean one)."""
        if key >= 0:
            return key
        made = self.make_dirty(~key)
        assert made is not None  # a join target has members
        return made

    def start(self, index: int) -> None:
        self.groups[index] = [index]
        self.group_of[index] = index
        self._readers_later(index)

    def add(self, index: int, key: int) -> None:
        self.groups[key].append(index)
        self.group_of[index] = key
        self._readers_later(index)

    def same_group(self, first: int, second: int) -> bool:
        return self.find(first) == self.find(second)


class _Aggregate:
    """groups.holds_io[key] and the like for _in_place_input, over a trial group's members now."""

    def __init__(self, state: _TrialGroups, over: Callable[[list[int]], Any]) -> None:
        self.state, self.over = state, over

    def __getitem__(self, key: int) -> Any:
        return self.over(self.state.members(key))


def plan_memory(
    graph: Graph,
    alignment: int = DEFAULT_ALIGNMENT,
    scratch_bytes: Mapping[int, int] | None = None,
    persistent_bytes: Mapping[int, int] | None = None,
    *,
    max_arena_bytes: int | None = None,
    search_budget: int = DEFAULT_SEARCH_BUDGET,
    arena_section: str | None = None,
    constants_section: str | None = None,
    in_place_nodes: Collection[int] = (),
    in_place_scratch_bytes: Mapping[int, int] | None = None,
    output_slices: Mapping[int, Sequence[int]] | None = None,
    aliasing_nodes: Collection[int] = (),
) -> MemoryPlan:
    """Plans activations, `scratch_bytes[node index]` of scratch live only while
    that node runs (plus `in_place_scratch_bytes[node index]` when its output
    lands on an input), and `persistent_bytes[node index]` live always. The outputs of
    `aliasing_nodes` (views of their input: AotOperator.aliases_input) share their input's buffer.

    Raises ArenaBudgetError, naming the peak step and what is live there,
    when the arena would exceed `max_arena_bytes`."""
    in_place_nodes = _worth_running_in_place(
        graph,
        scratch_bytes,
        persistent_bytes,
        in_place_nodes,
        in_place_scratch_bytes,
        output_slices,
        alignment,
        aliasing_nodes,
    )
    lifetimes = tensor_lifetimes(graph)
    groups, offsets = alias_layout(graph, in_place_nodes, output_slices, alignment, aliasing_nodes)
    unplaced = _tensor_buffers(graph, groups, lifetimes, offsets)
    without_in_place = unplaced
    if in_place_nodes or offsets:
        without_in_place = _tensor_buffers(graph, alias_groups(graph, aliasing_nodes=aliasing_nodes), lifetimes)
    scratch = _with_in_place_scratch(graph, groups, offsets, scratch_bytes, in_place_scratch_bytes)
    extra = _scratch_and_state(graph, scratch, persistent_bytes)
    unplaced = unplaced + extra

    requests = []
    for candidate in unplaced:
        # Every buffer is aligned for its element type (uint64 energies need 8);
        # scratch and state may hold 64-bit words, so they get at least 8.
        if candidate.tensors:
            step = max(alignment, *(graph.tensor(i).dtype.itemsize for i in candidate.tensors))
        else:
            step = max(alignment, STATE_ALIGNMENT)
        requests.append(Request(candidate.size, candidate.first_step, candidate.last_step, step))
    placement = place(requests, search_budget)
    placed = [dataclasses.replace(b, offset=o) for b, o in zip(unplaced, placement.offsets, strict=True)]

    arena_bytes = _align(placement.end, alignment)
    plan = MemoryPlan(
        arena_bytes=arena_bytes,
        lower_bound_bytes=placement.lower_bound,
        lower_bound_without_in_place_bytes=liveness_bound(
            [
                Request(b.size, b.first_step, b.last_step)
                for b in without_in_place + _scratch_and_state(graph, scratch_bytes, persistent_bytes)
            ]
        ),
        alignment=alignment,
        buffers=tuple(sorted(placed, key=lambda b: (b.offset, b.first_step))),
        strategy=placement.strategy,
        optimal=placement.optimal,
        largest_first_bytes=_align(placement.largest_first_end, alignment),
        arena_section=arena_section,
        constants_section=constants_section,
    )
    if max_arena_bytes is not None and arena_bytes > max_arena_bytes:
        raise ArenaBudgetError(_over_budget_message(graph, plan, max_arena_bytes), hint=_over_budget_hint(plan))
    return plan


def _peak_step(plan: MemoryPlan, steps: int) -> int:
    live = {
        step: sum(b.size for b in plan.buffers if b.first_step <= step <= b.last_step) for step in range(-1, steps + 1)
    }
    return max(live, key=lambda step: (live[step], -step))


def _describe_buffer(graph: Graph, buffer: Buffer) -> str:
    if buffer.scratch_of_node is not None:
        return f"scratch of {graph.nodes[buffer.scratch_of_node].describe()} ({buffer.size} B)"
    if buffer.persistent_of_node is not None:
        return f"persistent state of {graph.nodes[buffer.persistent_of_node].describe()} ({buffer.size} B)"
    return " = ".join(graph.tensor(i).describe() for i in buffer.tensors) + f" ({buffer.size} B)"


def _over_budget_message(graph: Graph, plan: MemoryPlan, max_arena_bytes: int) -> str:
    step = _peak_step(plan, len(graph.nodes))
    if step < 0:
        where = "before the first node (the graph's inputs)"
    elif step >= len(graph.nodes):
        where = "after the last node (the graph's outputs)"
    else:
        where = f"at step {step}, {graph.nodes[step].describe()}"
    live = sorted((b for b in plan.buffers if b.first_step <= step <= b.last_step), key=lambda b: -b.size)
    listed = "; ".join(_describe_buffer(graph, b) for b in live)
    return (
        f"the arena needs {plan.arena_bytes} bytes but max_arena_bytes is {max_arena_bytes}; "
        f"the peak is {where}, where these are live: {listed}"
    )


def _over_budget_hint(plan: MemoryPlan) -> str:
    advice = "raise max_arena_bytes, or shrink the tensors live at the peak (a smaller input, fewer channels)"
    if plan.arena_bytes > plan.lower_bound_bytes:
        return f"no plan of this schedule needs less than {plan.lower_bound_bytes} bytes; {advice}"
    return advice
