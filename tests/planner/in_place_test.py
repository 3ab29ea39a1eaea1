# SPDX-License-Identifier: Apache-2.0
"""Every kernel declared safe to run in place (NodeMemory.in_place),
run with its output planned over its input, equals the NumPy reference.

Each case is a two-node graph: ADD(graph input, zeros) writes `a`, then the
operator under test reads `a` and writes `y`. `a` dies at the second node
and is not the caller's data, so the planner gives `y` the bytes of `a`;
the test checks that it did, then compiles the module with the host gcc and
compares its outputs with the reference (opbridge_testing.single_op).
The models' golden tests cover the Helium and DSP variants where a shared
model runs in place (the resnet's ADDs).
"""

import dataclasses
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge.aot.definition_registration import as_registry_context
from opbridge.aot.resolve import resolve_operators
from opbridge.backends.c.memory_plan import plan_memory
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.cast.attributes import CastAttributes
from opbridge.ops.definition import Layout, QuantizationKind, node_memory, output_quantization
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.ops.elu.attributes import EluAttributes
from opbridge.ops.leaky_relu.attributes import LeakyReluAttributes
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge_testing import strategies
from opbridge_testing.single_op import check_c_matches_reference

REGISTRY = build_builtin_registry()

INPUT_Q = Quantization((0.05,), (3,))
A_Q = Quantization((0.06,), (-2,))
OUTPUT_Q = Quantization((0.07,), (5,))
# int16 (16x8) tensors: symmetric, as TFLite's converter quantizes them, at int16-sized scales.
INT16_Q = {
    INPUT_Q: Quantization((0.0005,), (0,)),
    A_Q: Quantization((0.0006,), (0,)),
    OUTPUT_Q: Quantization((0.0007,), (0,)),
}


@dataclasses.dataclass(frozen=True)
class Case:
    op_type: str
    input_dtype: DType
    output_dtype: DType
    attributes: Any = None
    binary: bool = False


LISTED_CASES = [
    *(
        Case(op, dtype, dtype, AddAttributes(), binary=True)
        for op in ("ADD", "SUB", "MUL")
        for dtype in (DType.INT8, DType.FLOAT32)
    ),
    Case("ADD", DType.INT32, DType.INT32, AddAttributes(), binary=True),
    Case("ADD", DType.INT16, DType.INT16, AddAttributes(), binary=True),
    *(Case(op, dtype, dtype) for op in ("RELU", "RELU6", "LOGISTIC", "TANH") for dtype in (DType.INT8, DType.FLOAT32)),
    *(Case("LEAKY_RELU", dtype, dtype, LeakyReluAttributes(0.3)) for dtype in (DType.INT8, DType.FLOAT32)),
    *(Case("HARD_SWISH", dtype, dtype) for dtype in (DType.INT8, DType.FLOAT32)),
    *(Case(op, DType.FLOAT32, DType.FLOAT32) for op in ("NEG", "EXP", "LOG", "SQRT", "ABS", "SOFTPLUS")),
    *(Case(op, DType.FLOAT32, DType.FLOAT32) for op in ("FLOOR", "RSQRT")),  # int8 RSQRT: inputs >= zero point only
    *(Case("SQUARED_DIFFERENCE", t, t, binary=True) for t in (DType.INT8, DType.INT32, DType.FLOAT32)),
    *(Case("ZEROS_LIKE", t, t) for t in (DType.INT8, DType.INT32, DType.INT64, DType.FLOAT32)),
    Case("ELU", DType.FLOAT32, DType.FLOAT32, EluAttributes(alpha=0.5)),
    Case("QUANTIZE", DType.INT8, DType.INT8, QuantizeAttributes()),
    Case("QUANTIZE", DType.INT16, DType.INT16, QuantizeAttributes(output_dtype=DType.INT16)),
    Case(
        "CAST", DType.INT32, DType.FLOAT32, CastAttributes(DType.FLOAT32)
    ),  # one of CAST's equal-width pairs (int32<->uint32, int8, int16, bool->int8: same kernel loop)
]


def derived_cases(listed: set[str]) -> list[Case]:
    """A case per int8 and float32 path of every other in-place one-input element-wise operator (GELU), with its
    attributes' defaults: such an operator needs no line here."""
    cases = []
    for definition in REGISTRY.definitions():
        schema = definition.schema
        if definition.op_type in listed or node_memory(definition).in_place is not True or schema is None:
            continue
        if definition.layout is not Layout.ELEMENTWISE or len(schema.inputs) != 1:
            continue
        attributes = schema.attributes_class() if schema.attributes_class is not None else None
        allowed = schema.constraint(schema.inputs[0].type_var).allowed
        cases += [Case(definition.op_type, t, t, attributes) for t in (DType.INT8, DType.FLOAT32) if t in allowed]
    return cases


CASES = LISTED_CASES + derived_cases({case.op_type for case in LISTED_CASES})


def output_quantization_of(case: Case) -> Quantization:
    """OUTPUT_Q, or the parameters the operator's definition fixes for its int8 output (LOGISTIC, TANH)."""
    fixed = output_quantization(REGISTRY[case.op_type])
    if fixed.kind is QuantizationKind.FIXED:
        return Quantization((float(fixed.scale),), (int(fixed.zero_point),))
    return OUTPUT_Q


def _quantization(dtype: DType, which: Quantization) -> Quantization | None:
    if dtype is DType.INT16:
        return INT16_Q[which]
    return which if dtype is DType.INT8 else None


def in_place_graph(case: Case, shape: tuple[int, ...], second_shape: tuple[int, ...]) -> Graph:
    dtype = case.input_dtype
    tensors = [
        Tensor(0, "x", dtype, shape, _quantization(dtype, INPUT_Q)),
        Tensor(1, "zeros", dtype, (), _quantization(dtype, INPUT_Q), np.zeros((), dtype.numpy)),
        Tensor(2, "a", dtype, shape, _quantization(dtype, A_Q)),
    ]
    inputs = [2]
    graph_inputs = [0]
    if case.binary:
        tensors.append(Tensor(3, "b", dtype, second_shape, _quantization(dtype, INPUT_Q)))
        inputs.append(3)
        graph_inputs.append(3)
    output_q = output_quantization_of(case)
    tensors.append(Tensor(len(tensors), "y", case.output_dtype, shape, _quantization(case.output_dtype, output_q)))
    nodes = [
        Node(0, "producer", "ADD", [0, 1], [2], AddAttributes()),
        Node(1, "under_test", case.op_type, inputs, [len(tensors) - 1], case.attributes),
    ]
    return Graph("in_place", tensors, nodes, graph_inputs, [len(tensors) - 1])


def test_every_in_place_operator_has_a_case() -> None:
    declared = {d.op_type for d in REGISTRY.definitions() if node_memory(d).in_place}
    # DEPTHWISE_CONV_2D's predicate (stride 1, equal shapes) has its own test below.
    assert declared == {case.op_type for case in CASES} | {"DEPTHWISE_CONV_2D"}


def depthwise_graph(data: st.DataObject, stride: int = 1) -> Graph:
    """ADD(x, zeros) -> a, then DEPTHWISE_CONV_2D(a) -> y with drawn windows, dilations and padding.
    x is one row, broadcast down `a` by the zeros, so the depthwise step holds the peak and running it
    in place (a window of rows shorter than the image) lowers it: the planner then takes it."""
    width, channels = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))
    taps = (data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4)))
    dilation = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 2)))
    height = (taps[0] - 1) * dilation[0] + 1 + data.draw(st.integers(1, 4))
    filter_q = data.draw(strategies.symmetric_filter(channels, axis=3))
    bias_scales = tuple(A_Q.scales[0] * s for s in filter_q.scales)
    bias_q = Quantization(bias_scales, (0,) * len(bias_scales), 0 if len(bias_scales) > 1 else None)
    out_height, out_width = -(-height // stride), -(-width // stride)  # SAME padding
    tensors = [
        Tensor(0, "x", DType.INT8, (1, 1, width, channels), INPUT_Q),
        Tensor(1, "zeros", DType.INT8, (1, height, 1, 1), INPUT_Q, np.zeros((1, height, 1, 1), np.int8)),
        Tensor(2, "a", DType.INT8, (1, height, width, channels), A_Q),
        Tensor(
            3,
            "filter",
            DType.INT8,
            (1, *taps, channels),
            filter_q,
            strategies.int8_array(data.draw, (1, *taps, channels)),
        ),
        Tensor(4, "bias", DType.INT32, (channels,), bias_q, strategies.bias_array(data.draw, channels)),
        Tensor(5, "y", DType.INT8, (1, out_height, out_width, channels), OUTPUT_Q),
    ]
    attributes = DepthwiseConv2DAttributes(
        stride_height=stride,
        stride_width=stride,
        dilation_height=dilation[0],
        dilation_width=dilation[1],
        activation=data.draw(strategies.ACTIVATIONS),
    )
    nodes = [
        Node(0, "producer", "ADD", [0, 1], [2], AddAttributes()),
        Node(1, "under_test", "DEPTHWISE_CONV_2D", [2, 3, 4], [5], attributes),
    ]
    return Graph("in_place_depthwise", tensors, nodes, [0], [5])


def test_depthwise_keeps_a_fresh_output_unless_in_place_lowers_the_bound() -> None:
    """Rows are copied and the kernel runs row by row in place: worth it only for bytes."""
    graph = in_place_graph(
        Case("ADD", DType.INT8, DType.INT8, AddAttributes(), binary=True), (1, 4, 4, 2), (1, 4, 4, 2)
    )
    tensors = list(graph.tensors)
    y = graph.outputs[0]
    filter_q = Quantization((0.01,), (0,))
    tensors += [
        Tensor(len(tensors), "filter", DType.INT8, (1, 3, 3, 2), filter_q, np.ones((1, 3, 3, 2), np.int8)),
        Tensor(len(tensors) + 1, "out", DType.INT8, (1, 4, 4, 2), OUTPUT_Q),
    ]
    nodes = [
        *graph.nodes,
        Node(
            2,
            "depthwise",
            "DEPTHWISE_CONV_2D",
            [y, len(tensors) - 2, None],
            [len(tensors) - 1],
            DepthwiseConv2DAttributes(),
        ),
    ]
    # The ADD step (x, b and its output) holds more than the depthwise step: in place would save nothing.
    chain = Graph("chain", tensors, nodes, graph.inputs, [len(tensors) - 1])
    resolved = resolve_operators(chain, as_registry_context(REGISTRY), "chain")
    assert 2 in resolved.in_place_nodes
    plan = plan_memory(
        chain,
        in_place_nodes=resolved.in_place_nodes,
        in_place_scratch_bytes=resolved.in_place_scratch_bytes,
    )
    assert plan.buffer_of(y) is not plan.buffer_of(len(tensors) - 1)
    assert all(buffer.scratch_of_node != 2 for buffer in plan.buffers)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_in_place_depthwise_equals_the_reference(data: st.DataObject) -> None:
    """Stride 1, SAME padding: the output rows overwrite the input rows, the windows' rows wait in the scratch."""
    graph = depthwise_graph(data)
    resolved = resolve_operators(graph, as_registry_context(REGISTRY), "in_place")
    assert resolved.in_place_nodes == {0, 1}
    plan = plan_memory(
        graph,
        scratch_bytes=resolved.scratch_bytes,
        in_place_nodes=resolved.in_place_nodes,
        in_place_scratch_bytes=resolved.in_place_scratch_bytes,
    )
    assert plan.buffer_of(2) is plan.buffer_of(5), "the planner did not put the output over its input"
    check_c_matches_reference(graph, REGISTRY, cases=3, seed=data.draw(st.integers(0, 1000)))


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_strided_depthwise_does_not_run_in_place(data: st.DataObject) -> None:
    graph = depthwise_graph(data, stride=2)
    resolved = resolve_operators(graph, as_registry_context(REGISTRY), "in_place")
    assert 1 not in resolved.in_place_nodes and 1 not in resolved.in_place_scratch_bytes


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.op_type}-{c.input_dtype.value}-{c.output_dtype.value}")
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_in_place_kernel_equals_the_reference(case: Case, data: st.DataObject) -> None:
    shape = tuple(data.draw(st.integers(1, 5)) for _ in range(data.draw(st.integers(1, 4))))
    # The second input of a binary operator keeps or broadcasts each dimension.
    second_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    graph = in_place_graph(case, shape, second_shape)
    resolved = resolve_operators(graph, as_registry_context(REGISTRY), "in_place")
    assert resolved.in_place_nodes == {0, 1}
    plan = plan_memory(graph, in_place_nodes=resolved.in_place_nodes)
    a, y = 2, len(graph.tensors) - 1
    assert plan.buffer_of(a) is plan.buffer_of(y), "the planner did not put the output over its input"
    check_c_matches_reference(graph, REGISTRY, cases=3, seed=data.draw(st.integers(0, 1000)))


def test_an_input_read_later_is_not_overwritten() -> None:
    graph = in_place_graph(Case("RELU", DType.INT8, DType.INT8), (4, 4), (4, 4))
    # A third node reads `a` after RELU: `a` does not die at RELU, so RELU gets a buffer of its own.
    tensors = [*graph.tensors, Tensor(4, "z", DType.INT8, (4, 4), OUTPUT_Q)]
    nodes = [*graph.nodes, Node(2, "later", "ADD", [2, 3], [4], AddAttributes())]
    later = Graph("later", tensors, nodes, [0], [3, 4])
    plan = plan_memory(later, in_place_nodes={0, 1, 2})
    assert plan.buffer_of(2) is not plan.buffer_of(3)
    assert plan.buffer_of(2) is plan.buffer_of(4)  # the last reader may take it over


def test_graph_inputs_are_never_overwritten() -> None:
    graph = in_place_graph(Case("RELU", DType.INT8, DType.INT8), (8,), (8,))
    plan = plan_memory(graph, in_place_nodes={0, 1})
    assert plan.buffer_of(0) is not plan.buffer_of(2)  # ADD reads the caller's input: fresh output
    assert plan.lower_bound_without_in_place_bytes == 16 and plan.lower_bound_bytes == 16
