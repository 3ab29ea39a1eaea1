# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION along its outermost axis: the producers write straight into their slices of the
output (no copy, no second buffer), and the C still equals the reference; along an inner axis,
or when an input is the caller's, each input keeps a buffer of its own and is copied."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge.aot.compile import plan_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.aot.resolve import resolve_operators
from opbridge.backends.c.memory_plan import MemoryPlan
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge_testing.single_op import check_c_matches_reference

REGISTRY = build_builtin_registry()
Q = Quantization((0.05,), (3,))


def concatenation_graph(dtype: DType, shapes: list[tuple[int, ...]], axis: int, from_caller: bool = False) -> Graph:
    """x_i -> ADD(x_i, zero) -> a_i for each input (or x_0 straight in, from_caller), then CONCATENATION(a_0, ...)."""
    q = Q if dtype is DType.INT8 else None
    tensors: list[Tensor] = []
    nodes: list[Node] = []
    joined = []
    for position, shape in enumerate(shapes):
        x = len(tensors)
        tensors.append(Tensor(x, f"x{position}", dtype, shape, q))
        if from_caller and position == 0:
            joined.append(x)
            continue
        tensors.append(Tensor(x + 1, f"zero{position}", dtype, (), q, np.zeros((), dtype.numpy)))
        tensors.append(Tensor(x + 2, f"a{position}", dtype, shape, q))
        nodes.append(Node(len(nodes), f"producer{position}", "ADD", [x, x + 1], [x + 2], AddAttributes()))
        joined.append(x + 2)
    out_shape = list(shapes[0])
    out_shape[axis] = sum(shape[axis] for shape in shapes)
    y = len(tensors)
    tensors.append(Tensor(y, "y", dtype, tuple(out_shape), q))
    nodes.append(Node(len(nodes), "join", "CONCATENATION", joined, [y], ConcatenationAttributes(axis=axis)))
    inputs = [t.index for t in tensors if t.name.startswith("x")]
    return Graph("concatenation", tensors, nodes, inputs, [y])


def plan(graph: Graph) -> MemoryPlan:
    resolved = resolve_operators(graph, as_registry_context(REGISTRY), "slices")
    return plan_graph(graph, resolved, 4, None)


@st.composite
def cases(draw: st.DrawFn) -> tuple[DType, list[tuple[int, ...]], int]:
    dtype = draw(st.sampled_from([DType.INT8, DType.FLOAT32, DType.INT32]))
    rank = draw(st.integers(1, 4))
    axis = draw(st.integers(0, rank - 1))
    # Leading ones up to the axis (contiguous slices) or not, drawn.
    base = [1 if dim < axis and draw(st.booleans()) else draw(st.integers(1, 4)) for dim in range(rank)]
    shapes = []
    for _ in range(draw(st.integers(2, 3))):
        shape = list(base)
        shape[axis] = draw(st.integers(1, 4)) * 4  # whole words: every slice offset stays aligned
        shapes.append(tuple(shape))
    return dtype, shapes, axis


@settings(max_examples=30, deadline=None)
@given(cases(), st.integers(0, 1000))
def test_producers_write_into_their_slices(case: tuple[DType, list[tuple[int, ...]], int], seed: int) -> None:
    dtype, shapes, axis = case
    graph = concatenation_graph(dtype, shapes, axis)
    memory = plan(graph)
    y = graph.outputs[0]
    joined = graph.nodes[-1].inputs
    contiguous = all(size == 1 for size in graph.tensor(y).shape[:axis])
    offset = 0
    for index in joined:
        if contiguous:
            assert memory.buffer_of(index) is memory.buffer_of(y)
            assert memory.offset_of(index) == memory.offset_of(y) + offset
        else:
            assert memory.buffer_of(index) is not memory.buffer_of(y)
        offset += graph.tensor(index).bytes
    if contiguous:  # the inputs and the output never need bytes of their own at once
        inputs = sum(graph.tensor(i).bytes for i in graph.inputs)
        assert memory.lower_bound_bytes <= inputs + graph.tensor(y).bytes
    check_c_matches_reference(graph, REGISTRY, cases=2, seed=seed)


def test_the_callers_input_is_copied() -> None:
    graph = concatenation_graph(DType.INT8, [(1, 4), (1, 8)], axis=1, from_caller=True)
    memory = plan(graph)
    x0, a1 = graph.nodes[-1].inputs
    y = graph.outputs[0]
    assert memory.buffer_of(x0) is not memory.buffer_of(y)
    assert memory.buffer_of(a1) is not memory.buffer_of(y)  # all inputs in place, or none
    check_c_matches_reference(graph, REGISTRY, cases=2, seed=3)


def test_nested_concatenations_share_one_buffer() -> None:
    inner = concatenation_graph(DType.INT8, [(1, 4), (1, 8)], axis=1)
    # y (1, 12) and a third produced tensor joined again: y becomes a slice of the outer output.
    tensors = list(inner.tensors)
    zero = len(tensors)
    tensors.append(Tensor(zero, "x2", DType.INT8, (1, 4), Q))
    tensors.append(Tensor(zero + 1, "zero2", DType.INT8, (), Q, np.zeros((), np.int8)))
    tensors.append(Tensor(zero + 2, "a2", DType.INT8, (1, 4), Q))
    tensors.append(Tensor(zero + 3, "z", DType.INT8, (1, 16), Q))
    y = inner.outputs[0]
    nodes = [
        *inner.nodes,
        Node(len(inner.nodes), "producer2", "ADD", [zero, zero + 1], [zero + 2], AddAttributes()),
        Node(len(inner.nodes) + 1, "outer", "CONCATENATION", [y, zero + 2], [zero + 3], ConcatenationAttributes(1)),
    ]
    graph = Graph("nested", tensors, nodes, [*inner.inputs, zero], [zero + 3])
    memory = plan(graph)
    a0, a1 = inner.nodes[-1].inputs
    z = zero + 3
    assert [memory.offset_of(i) - memory.offset_of(z) for i in (a0, a1, y, zero + 2)] == [0, 4, 0, 12]
    check_c_matches_reference(graph, REGISTRY, cases=2, seed=5)


def test_constant_inputs_are_copied_beside_the_slices() -> None:
    graph = concatenation_graph(DType.INT8, [(1, 4), (1, 8)], axis=1)
    tensors = list(graph.tensors)
    constant = len(tensors)
    tensors.append(Tensor(constant, "padding", DType.INT8, (1, 4), Q, np.arange(4, dtype=np.int8).reshape(1, 4)))
    y = graph.outputs[0]
    tensors[y] = Tensor(y, "y", DType.INT8, (1, 16), Q)
    join = graph.nodes[-1]
    nodes = [
        *graph.nodes[:-1],
        Node(join.index, "join", "CONCATENATION", [constant, *join.inputs], [y], join.attributes),
    ]
    padded = Graph("padded", tensors, nodes, graph.inputs, [y])
    memory = plan(padded)
    a0, a1 = join.inputs
    assert [memory.offset_of(i) - memory.offset_of(y) for i in (a0, a1)] == [4, 8]
    check_c_matches_reference(padded, REGISTRY, cases=2, seed=9)


def test_an_input_read_after_the_concatenation_keeps_its_own_bytes() -> None:
    """c = CONCATENATION(a, b); e = ADD(c, a) runs in place over c: had a been written into c, the
    first row of e would overwrite a before the second row reads it."""
    graph = concatenation_graph(DType.INT8, [(1, 4), (1, 4)], axis=0)
    tensors = list(graph.tensors)
    y = graph.outputs[0]
    a = graph.nodes[-1].inputs[0]
    e = len(tensors)
    tensors.append(Tensor(e, "e", DType.INT8, (2, 4), Q))
    nodes = [*graph.nodes, Node(len(graph.nodes), "later", "ADD", [y, a], [e], AddAttributes())]
    later = Graph("later", tensors, nodes, graph.inputs, [e])
    memory = plan(later)
    assert memory.buffer_of(a) is not memory.buffer_of(y)
    assert memory.buffer_of(e) is memory.buffer_of(y)  # the ADD still runs in place over the concatenation
    check_c_matches_reference(later, REGISTRY, cases=2, seed=11)
