# SPDX-License-Identifier: Apache-2.0
"""DIV on plain int32 and float32 with broadcasting: reference == TFLite Micro, C kernel == reference
(float32: bit for bit).

TFLite Micro on the host traps on a zero divisor (and on INT32_MIN / -1),
so comparisons with it use divisors without those; the C kernel is compared
with the reference on seeded divisors, zeros included.
"""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    float32_edge_graph,
)
from opbridge_testing.tflm import run_tflite_micro

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.c.golden_inputs import seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Activation
from opbridge.ops.div.attributes import DivAttributes
from opbridge.ops.div.reference import truncating_divide

REGISTRY = available_operator_registry()
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def nonzero_divisors(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Small and large divisors of both signs, never 0 or -1 (-1 would trap on INT32_MIN)."""
    magnitude = np.where(rng.random(shape) < 0.5, rng.integers(2, 1000, shape), rng.integers(2, INT32_MAX, shape))
    divisors = np.where(rng.random(shape) < 0.5, -magnitude, magnitude)
    return np.where(rng.random(shape) < 0.1, 1, divisors).astype(np.int32)


def draw_graph(data: st.DataObject) -> Graph:
    attributes = DivAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return broadcast_binary_graph(data, "DIV", DType.INT32, attributes, constant=nonzero_divisors)


def options_of(graph: Graph) -> schema.DivOptionsT:
    options = schema.DivOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    return options


def test_truncating_divide_is_c_division() -> None:
    numerators = np.array([7, -7, 7, -7, 1, -1, 0, INT32_MIN, INT32_MIN, INT32_MAX, 5], dtype=np.int64)
    denominators = np.array([2, 2, -2, -2, 3, 3, 5, -1, 1, -1, 0], dtype=np.int64)
    expected = [3, -3, -3, 3, 0, 0, 0, INT32_MIN, INT32_MIN, -INT32_MAX, 0]
    assert truncating_divide(numerators, denominators).tolist() == expected


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    if graph.tensor(graph.nodes[0].inputs[1]).is_constant:
        check_reference_matches_tflite_micro(
            graph, REGISTRY, schema.BuiltinOperator.DIV, 1, schema.BuiltinOptions.DivOptions, options_of(graph)
        )
        return
    # Both inputs at run time: numerators over the whole range, divisors without 0 and -1.
    model = single_op_model(graph, schema.BuiltinOperator.DIV, 1, schema.BuiltinOptions.DivOptions, options_of(graph))
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "div.tflite")
    interpreter = ReferenceInterpreter(parsed, REGISTRY)
    numerator, divisor = parsed.input_tensors()
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(3):
        inputs = [
            rng.integers(INT32_MIN, INT32_MAX, size=numerator.shape, endpoint=True).astype(np.int32),
            nonzero_divisors(rng, divisor.shape),
        ]
        (ours,) = interpreter.run(inputs)
        (theirs,) = run_tflite_micro(model, inputs, 1)
        np.testing.assert_array_equal(ours, theirs)


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    # Run-time divisors come from seeded_inputs, whose quiet cases include 0 and -1.
    check_c_matches_reference(draw_graph(data), REGISTRY)


def test_c_kernel_matches_reference_on_edge_quotients() -> None:
    # Rows of constant numerators against seeded divisors, whose quiet cases put 0 and -1 in every row
    # (checked below): x / 0 and INT32_MIN / -1.
    row_values = [INT32_MIN, INT32_MAX, -7, 7, 0, -1, 1, INT32_MIN + 1]
    numerators = np.repeat(np.array(row_values, dtype=np.int32)[:, None], 128, axis=1)
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT32, numerators.shape, data=numerators)
    b = builder.tensor("b", DType.INT32, numerators.shape)
    y = builder.tensor("y", DType.INT32, numerators.shape)
    graph = builder.single_node_graph("DIV", [a, b], [y], DivAttributes())
    divisors = seeded_inputs(graph.tensor(b), 4, seed=1)[1]
    assert all({0, -1} <= set(row.tolist()) for row in divisors)
    check_c_matches_reference(graph, REGISTRY, cases=4, seed=1)


# float32: quotients need no libm, so C and TFLite Micro match the reference bit for bit (x / 0 is +-inf or NaN).


def float32_graph(data: st.DataObject) -> Graph:
    attributes = DivAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return broadcast_binary_graph(data, "DIV", DType.FLOAT32, attributes)


@settings(max_examples=15)
@given(st.data())
def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = float32_graph(data)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.DIV, 1, schema.BuiltinOptions.DivOptions, options_of(graph)
    )


@settings(max_examples=8)
@given(st.data())
def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
    check_c_matches_reference(float32_graph(data), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize("activation", list(Activation))
def test_float32_edge_values_match_tflite_micro(activation: Activation) -> None:
    # Every pair of edge values: x / 0, x / -0.0, 0 / 0, inf / inf, overflow, subnormal quotients.
    graph = float32_edge_graph("DIV", DivAttributes(activation=activation))
    edges = FLOAT32_EDGE_VALUES
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.DIV,
        1,
        schema.BuiltinOptions.DivOptions,
        options_of(graph),
        inputs=[[edges.reshape(-1, 1), edges.reshape(1, -1)]],
    )


def test_float32_c_kernel_on_edge_values() -> None:
    # Seeded numerators over finite edge divisors (constants): x / 0, x / 1e-45 (overflow), signed zeros.
    finite = FLOAT32_EDGE_VALUES[np.isfinite(FLOAT32_EDGE_VALUES)]
    builder = GraphBuilder()
    a = builder.tensor("a", DType.FLOAT32, (1, 8))
    b = builder.tensor("b", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
    y = builder.tensor("y", DType.FLOAT32, (finite.size, 8))
    graph = builder.single_node_graph("DIV", [a, b], [y], DivAttributes(activation=Activation.RELU_N1_TO_1))
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)
