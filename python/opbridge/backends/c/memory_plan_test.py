# SPDX-License-Identifier: Apache-2.0
"""The memory planner on drawn graphs: no two live buffers share bytes; bounds hold."""

from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.backends.c.memory_plan import plan_memory
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
