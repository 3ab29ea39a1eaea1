# SPDX-License-Identifier: Apache-2.0
"""The memory-minimal schedule: valid, never worse than the file's order,
counted as the planner counts, and optimal against every order of small graphs."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing.single_op import check_c_matches_reference

from opbridge.backends.c.memory_plan import plan_memory
from opbridge.backends.c.schedule import _Liveness, best_schedule, file_order_peak, reorder
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.builtin import build_builtin_registry


@st.composite
def branchy_graphs(draw: st.DrawFn) -> Graph:
    """DAGs in a valid order: each node reads one or two earlier values (sometimes a RESHAPE)."""
    tensors = [Tensor(0, "input", DType.INT8, (draw(st.integers(1, 100)),))]
    nodes = []
    for step in range(draw(st.integers(1, 6))):
        reads = draw(st.lists(st.sampled_from(range(len(tensors))), min_size=1, max_size=2, unique=True))
        reshape = len(reads) == 1 and draw(st.integers(0, 4)) == 0
        size = tensors[reads[0]].bytes if reshape else draw(st.integers(1, 100))
        tensors.append(Tensor(len(tensors), f"t{len(tensors)}", DType.INT8, (size,)))
        nodes.append(Node(step, f"n{step}", "RESHAPE" if reshape else "ADD", list(reads), [len(tensors) - 1]))
    unread = [t.index for t in tensors[1:] if not any(t.index in n.inputs for n in nodes)]
    return Graph("branchy", tensors, nodes, [0], unread)


def reshapes(graph: Graph) -> set[int]:
    """The nodes whose output is a view of their input here (RESHAPE's NodeMemory.aliases_input)."""
    return {node.index for node in graph.nodes if node.op_type == "RESHAPE"}


def _is_topological(graph: Graph, order: tuple[int, ...]) -> bool:
    try:
        reorder(graph, order)
    except ValueError:
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(branchy_graphs())
def test_the_order_is_valid_optimal_and_counted_as_the_planner_counts(graph: Graph) -> None:
    schedule = best_schedule(graph, aliasing_nodes=reshapes(graph))
    assert schedule.complete
    assert sorted(schedule.order) == list(range(len(graph.nodes)))
    scheduled = reorder(graph, schedule.order)  # the Graph constructor checks the order
    assert schedule.peak_bytes <= schedule.file_peak_bytes == file_order_peak(graph, reshapes(graph))
    assert plan_memory(scheduled, aliasing_nodes=reshapes(scheduled)).lower_bound_bytes == schedule.peak_bytes
    # Exhaustive: no order of these (at most 6) nodes has a smaller peak.
    best = min(
        file_order_peak(reorder(graph, order), reshapes(reorder(graph, order)))
        for order in itertools.permutations(range(len(graph.nodes)))
        if _is_topological(graph, order)
    )
    assert schedule.peak_bytes == best


def test_two_branches_run_one_after_the_other() -> None:
    # x -> A -> a (100) -> B -> b (1);  x -> C -> c (100) -> D -> d (1);  E: b + d -> y.
    # The file runs A, C, B, D: a and c (and x) live at once, 210 bytes.
    # Finishing a branch first needs 111.
    sizes = {"x": 10, "a": 100, "c": 100, "b": 1, "d": 1, "y": 1}
    names = list(sizes)
    tensors = [Tensor(i, name, DType.INT8, (sizes[name],)) for i, name in enumerate(names)]
    t = {name: i for i, name in enumerate(names)}
    nodes = [
        Node(0, "A", "ADD", [t["x"]], [t["a"]]),
        Node(1, "C", "ADD", [t["x"]], [t["c"]]),
        Node(2, "B", "ADD", [t["a"]], [t["b"]]),
        Node(3, "D", "ADD", [t["c"]], [t["d"]]),
        Node(4, "E", "ADD", [t["b"], t["d"]], [t["y"]]),
    ]
    graph = Graph("branches", tensors, nodes, [t["x"]], [t["y"]])
    schedule = best_schedule(graph)
    assert schedule.file_peak_bytes == 210 and schedule.peak_bytes == 111
    assert schedule.order == (0, 2, 1, 3, 4)
    assert plan_memory(reorder(graph, schedule.order), alignment=1).arena_bytes == 111


def test_a_chain_keeps_the_file_order() -> None:
    tensors = [Tensor(i, f"t{i}", DType.INT8, (10 * (i + 1),)) for i in range(5)]
    nodes = [Node(i, f"n{i}", "ADD", [i], [i + 1]) for i in range(4)]
    schedule = best_schedule(Graph("chain", tensors, nodes, [0], [4]))
    assert schedule.order == (0, 1, 2, 3) and schedule.peak_bytes == schedule.file_peak_bytes


def test_out_of_budget_keeps_the_file_order() -> None:
    # Twelve independent branches: 2^12 states, more than a budget of 100.
    tensors = [Tensor(0, "x", DType.INT8, (4,))]
    nodes = []
    for branch in range(12):
        tensors.append(Tensor(len(tensors), f"b{branch}", DType.INT8, (50 - branch,)))
        nodes.append(Node(branch, f"n{branch}", "ADD", [0], [len(tensors) - 1]))
    graph = Graph("wide", tensors, nodes, [0], [t.index for t in tensors[1:]])
    schedule = best_schedule(graph, budget=100)
    assert not schedule.complete and schedule.order == tuple(range(12))


def test_a_reordered_model_computes_what_the_file_order_computes() -> None:
    # The two-branch shape above with real int8 operators: A and C (ADDs) write
    # 128-byte activations, B and D (4x4 max pools) shrink them to 8 bytes, E adds.
    # The reordered graph's reference outputs equal the original's, and its C
    # equals its reference.
    q = Quantization((0.05,), (1,))
    big, small = (1, 4, 4, 8), (1, 1, 1, 8)
    shapes = {"x": big, "a": big, "c": big, "b": small, "d": small, "y": small}
    tensors = [Tensor(i, name, DType.INT8, shape, q) for i, (name, shape) in enumerate(shapes.items())]
    t = {name: i for i, name in enumerate(shapes)}
    zeros = len(tensors)
    tensors.append(Tensor(zeros, "zeros", DType.INT8, (), q, np.zeros((), np.int8)))
    add = AddAttributes()
    pool = Pool2DAttributes(filter_height=4, filter_width=4)
    nodes = [
        Node(0, "A", "ADD", [t["x"], zeros], [t["a"]], add),
        Node(1, "C", "ADD", [t["x"], t["x"]], [t["c"]], add),
        Node(2, "B", "MAX_POOL_2D", [t["a"]], [t["b"]], pool),
        Node(3, "D", "MAX_POOL_2D", [t["c"]], [t["d"]], pool),
        Node(4, "E", "ADD", [t["b"], t["d"]], [t["y"]], add),
    ]
    graph = Graph("branches", tensors, nodes, [t["x"]], [t["y"]])
    schedule = best_schedule(graph)
    assert (schedule.file_peak_bytes, schedule.peak_bytes) == (384, 264)
    scheduled = reorder(graph, schedule.order)
    registry = build_builtin_registry()
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.integers(-128, 128, size=big, dtype=np.int8)
        (before,) = ReferenceInterpreter(graph, registry).run([x])
        (after,) = ReferenceInterpreter(scheduled, registry).run([x])
        np.testing.assert_array_equal(before, after)
    check_c_matches_reference(scheduled, registry, cases=3)


@settings(max_examples=300, deadline=None)
@given(branchy_graphs(), st.lists(st.integers(0, 6), max_size=2))
def test_the_file_order_peak_is_the_step_by_step_count(graph: Graph, extra_outputs: list[int]) -> None:
    """file_order_peak sums each group's range of steps at once: the same as asking _Liveness at
    every step, as best_schedule does (also when a graph output is read by a later node)."""
    outputs = sorted(set(graph.outputs) | {i for i in extra_outputs if 0 < i < len(graph.tensors)})
    graph = Graph(graph.name, graph.tensors, graph.nodes, graph.inputs, outputs)
    liveness = _Liveness(graph)
    done, peak = 0, liveness.live_after(0)
    for node in graph.nodes:
        peak = max(peak, liveness.during(done, node.index))
        done |= 1 << node.index
        peak = max(peak, liveness.live_after(done))
    assert file_order_peak(graph) == peak
