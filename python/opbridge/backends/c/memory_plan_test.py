# SPDX-License-Identifier: Apache-2.0
"""The memory planner on drawn graphs: no two live buffers share bytes; bounds hold."""

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.backends.c.memory_plan import (
    DEFAULT_ALIGNMENT,
    _GraphFacts,
    _InPlaceWhatIf,
    _scratch_and_state,
    _tensor_buffers,
    _with_in_place_scratch,
    _worth_running_in_place,
    alias_layout,
    arena_lower_bound,
    plan_memory,
    tensor_lifetimes,
)
from opbridge.backends.c.placement import Request, liveness_bound
from opbridge.ir import DType, Graph, Node, Tensor


@st.composite
def random_graphs(draw: st.DrawFn) -> Graph:
    """DAGs in schedule order: each node reads one or two earlier values."""
    tensors = [Tensor(0, "input", DType.INT8, (draw(st.integers(1, 200)),))]
    nodes = []
    for step in range(draw(st.integers(1, 12))):
        available = list(range(len(tensors)))
        reads = draw(st.lists(st.sampled_from(available), min_size=1, max_size=2, unique=True))
        reshape = len(reads) == 1 and draw(st.booleans())
        size = tensors[reads[0]].bytes if reshape else draw(st.integers(1, 200))
        tensors.append(Tensor(len(tensors), f"t{len(tensors)}", DType.INT8, (size,)))
        op_type = "RESHAPE" if reshape else "ADD"
        nodes.append(Node(step, f"n{step}", op_type, list(reads), [len(tensors) - 1]))
    return Graph("random", tensors, nodes, [0], [len(tensors) - 1])


def reshapes(graph: Graph) -> set[int]:
    """The nodes whose output is a view of their input here (RESHAPE's NodeMemory.aliases_input)."""
    return {node.index for node in graph.nodes if node.op_type == "RESHAPE"}


@settings(max_examples=200, deadline=None)  # an exact search may take up to ~0.4 s
@given(random_graphs(), st.sampled_from([1, 4, 16]))
def test_live_buffers_never_overlap(graph: Graph, alignment: int) -> None:
    plan = plan_memory(graph, alignment=alignment, aliasing_nodes=reshapes(graph))
    for first in plan.buffers:
        assert first.offset % alignment == 0
        assert first.offset + first.size <= plan.arena_bytes
        for second in plan.buffers:
            if first is not second and first.overlaps_in_time(second):
                assert first.offset + first.size <= second.offset or second.offset + second.size <= first.offset
    assert plan.lower_bound_bytes <= plan.arena_bytes
    planned = {index for buffer in plan.buffers for index in buffer.tensors}
    assert planned == {t.index for t in graph.tensors}


def test_a_chain_needs_only_two_buffers() -> None:
    tensors = [Tensor(i, f"t{i}", DType.INT8, (100,)) for i in range(5)]
    nodes = [Node(i, f"n{i}", "ADD", [i], [i + 1]) for i in range(4)]
    plan = plan_memory(Graph("chain", tensors, nodes, [0], [4]))
    assert plan.arena_bytes == plan.lower_bound_bytes == 200


def test_reshape_aliases_its_input() -> None:
    tensors = [Tensor(i, f"t{i}", DType.INT8, (64,)) for i in range(3)]
    nodes = [Node(0, "r", "RESHAPE", [0], [1]), Node(1, "a", "ADD", [1], [2])]
    graph = Graph("alias", tensors, nodes, [0], [2])
    plan = plan_memory(graph, aliasing_nodes=reshapes(graph))
    assert plan.offset_of(0) == plan.offset_of(1)
    assert plan.arena_bytes == 128
    # Without the fact the RESHAPE's output gets a buffer of its own.
    assert plan_memory(graph).offset_of(0) != plan_memory(graph).offset_of(1)


@st.composite
def in_place_problems(draw: st.DrawFn) -> tuple[Graph, dict[str, Any]]:
    """Graphs whose nodes may run in place (few sizes and two element widths, so that outputs often
    match an input), reshapes, concatenations (output slices), constants, scratch and state."""
    sizes = st.sampled_from([4, 8, 16])
    dtypes = st.sampled_from([DType.INT8, DType.INT8, DType.INT16])
    tensors = [Tensor(0, "input", draw(dtypes), (draw(sizes),))]
    constant = Tensor(1, "constant", DType.INT8, (4,), data=np.zeros(4, dtype=np.int8))
    tensors.append(constant)
    inputs = [0]
    if draw(st.booleans()):
        tensors.append(Tensor(2, "input2", draw(dtypes), (draw(sizes),)))
        inputs.append(2)
    nodes: list[Node] = []
    slices: dict[int, list[int]] = {}
    for step in range(draw(st.integers(1, 14))):
        activations = [t.index for t in tensors if not t.is_constant]
        kind = draw(st.sampled_from(["ADD", "ADD", "ADD", "RESHAPE", "CONCATENATION"]))
        reads = draw(st.lists(st.sampled_from(activations), min_size=1, max_size=2, unique=True))
        if kind == "RESHAPE":
            source = tensors[reads[0]]
            output = Tensor(len(tensors), f"t{len(tensors)}", source.dtype, source.shape)
            reads = reads[:1]
        elif kind == "CONCATENATION":
            if draw(st.booleans()):
                reads = [*reads, constant.index]
            parts = [tensors[i] for i in reads]
            output = Tensor(len(tensors), f"t{len(tensors)}", DType.INT8, (sum(p.bytes for p in parts),))
            slices[step] = [sum(p.bytes for p in parts[:position]) for position in range(len(parts))]
        else:
            if draw(st.booleans()):
                reads = [*reads, constant.index]
            output = Tensor(len(tensors), f"t{len(tensors)}", draw(dtypes), (draw(sizes),))
        tensors.append(output)
        nodes.append(Node(step, f"n{step}", kind, list(reads), [output.index]))
    activations = [t.index for t in tensors if not t.is_constant and t.index not in inputs]
    outputs = sorted(set([activations[-1], *draw(st.lists(st.sampled_from(activations), max_size=2))]))
    steps = st.integers(0, len(nodes) - 1)
    hooks = {
        "in_place_nodes": set(draw(st.lists(steps, max_size=len(nodes)))),
        "in_place_scratch_bytes": draw(st.dictionaries(steps, st.integers(0, 12), max_size=len(nodes))),
        "scratch_bytes": draw(st.dictionaries(steps, st.integers(0, 12), max_size=3)),
        "persistent_bytes": draw(st.dictionaries(steps, st.integers(0, 12), max_size=2)),
        "output_slices": slices if draw(st.booleans()) else None,
    }
    return Graph("in place", tensors, nodes, inputs, outputs), hooks


def _bound_from_buffers(graph: Graph, hooks: dict[str, Any], in_place_nodes: set[int], alignment: int) -> int:
    """arena_lower_bound as plan_memory builds its buffers: what _lower_bound sums without them."""
    groups, offsets = alias_layout(graph, in_place_nodes, hooks["output_slices"], alignment, reshapes(graph))
    buffers = _tensor_buffers(graph, groups, tensor_lifetimes(graph), offsets)
    scratch = _with_in_place_scratch(graph, groups, offsets, hooks["scratch_bytes"], hooks["in_place_scratch_bytes"])
    buffers += _scratch_and_state(graph, scratch, hooks["persistent_bytes"])
    return liveness_bound([Request(b.size, b.first_step, b.last_step) for b in buffers])


@settings(max_examples=300, deadline=None)
@given(in_place_problems(), st.sampled_from([1, 4]))
def test_the_summed_bound_is_the_bound_of_the_buffers(problem: tuple[Graph, dict[str, Any]], alignment: int) -> None:
    graph, hooks = problem
    bound = arena_lower_bound(
        graph,
        hooks["scratch_bytes"],
        hooks["persistent_bytes"],
        hooks["in_place_nodes"],
        hooks["in_place_scratch_bytes"],
        hooks["output_slices"],
        alignment,
        reshapes(graph),
    )
    assert bound == _bound_from_buffers(graph, hooks, hooks["in_place_nodes"], alignment)


@settings(max_examples=300, deadline=None)
@given(in_place_problems())
def test_what_if_answers_equal_laying_the_graph_out_again(problem: tuple[Graph, dict[str, Any]]) -> None:
    """_InPlaceWhatIf's bound without one node (replaying only what the change reaches) is the bound
    of the layout made from scratch without it; so is its bound after it drops nodes."""
    graph, hooks = problem
    hooks = {**hooks, "output_slices": None}  # the what-ifs are for graphs without slices
    chosen = set(hooks["in_place_nodes"])
    what_if = _InPlaceWhatIf(
        _GraphFacts(graph, reshapes(graph)),
        tensor_lifetimes(graph),
        hooks["scratch_bytes"],
        hooks["persistent_bytes"],
        hooks["in_place_scratch_bytes"],
        chosen,
    )
    assert what_if.best == _bound_from_buffers(graph, hooks, chosen, DEFAULT_ALIGNMENT)
    for node in sorted(chosen):
        assert what_if.bound_without(node) == _bound_from_buffers(graph, hooks, chosen - {node}, DEFAULT_ALIGNMENT)
    for node in sorted(chosen):
        what_if.drop_if_no_worse(node)
        assert what_if.best == _bound_from_buffers(graph, hooks, what_if.chosen, DEFAULT_ALIGNMENT)


@settings(max_examples=300, deadline=None)
@given(in_place_problems())
def test_worth_running_in_place_keeps_the_nodes_the_full_recount_keeps(
    problem: tuple[Graph, dict[str, Any]],
) -> None:
    """The in-place choice equals the one made by counting every trial's bound from scratch."""
    graph, hooks = problem
    chosen = set(hooks["in_place_nodes"])
    for node in sorted(n for n in chosen if hooks["in_place_scratch_bytes"].get(n)):
        trial = chosen - {node}
        if _bound_from_buffers(graph, hooks, trial, DEFAULT_ALIGNMENT) <= _bound_from_buffers(
            graph, hooks, chosen, DEFAULT_ALIGNMENT
        ):
            chosen = trial
    assert (
        _worth_running_in_place(
            graph,
            hooks["scratch_bytes"],
            hooks["persistent_bytes"],
            hooks["in_place_nodes"],
            hooks["in_place_scratch_bytes"],
            hooks["output_slices"],
            DEFAULT_ALIGNMENT,
            reshapes(graph),
        )
        == chosen
    )
