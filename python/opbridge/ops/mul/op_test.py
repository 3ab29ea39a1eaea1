"""MUL and SUB with broadcasting (int8, float32; MUL also plain int32): reference == TFLite Micro, C kernel ==
reference (float32: bit for bit)."""

from typing import Any

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    float32_edge_graph,
)

from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Activation
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.builtin import build_builtin_registry

REGISTRY = build_builtin_registry()
CODES = {
    "MUL": (schema.BuiltinOperator.MUL, schema.BuiltinOptions.MulOptions, schema.MulOptionsT),
    "SUB": (schema.BuiltinOperator.SUB, schema.BuiltinOptions.SubOptions, schema.SubOptionsT),
}


def draw_graph(data: st.DataObject, op_type: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(4))
    first_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    second_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    output_shape = tuple(max(a, b) for a, b in zip(first_shape, second_shape, strict=True))
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, first_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    b = builder.tensor("b", DType.INT8, second_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    y = builder.tensor("y", DType.INT8, output_shape, data.draw(strategies.per_tensor(0.01, 1.0)))
    attributes = AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return builder.single_node_graph(op_type, [a, b], [y], attributes)


@settings(max_examples=25)
@given(st.data(), st.sampled_from(["MUL", "SUB"]))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = draw_graph(data, op_type)
    code, options_type, options_class = CODES[op_type]
    options = options_class()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    check_reference_matches_tflite_micro(graph, REGISTRY, code, 2, options_type, options)


@settings(max_examples=10)
@given(st.data(), st.sampled_from(["MUL", "SUB"]))
def test_c_kernel_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(draw_graph(data, op_type), REGISTRY)


@settings(max_examples=25)
@given(st.data())
def test_int32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(
        data, "MUL", DType.INT32, AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    )
    options = schema.MulOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.MUL, 1, schema.BuiltinOptions.MulOptions, options
    )


@settings(max_examples=10)
@given(st.data())
def test_int32_c_kernel_matches_reference(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(
        data, "MUL", DType.INT32, AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    )
    check_c_matches_reference(graph, REGISTRY)


# float32: products and differences need no libm, so C and TFLite Micro match the reference bit for bit.


def float32_graph(data: st.DataObject, op_type: str) -> Graph:
    attributes = AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return broadcast_binary_graph(data, op_type, DType.FLOAT32, attributes)


def float32_options(graph: Graph) -> Any:
    options = CODES[graph.nodes[0].op_type][2]()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    return options


@settings(max_examples=15)
@given(st.data(), st.sampled_from(["MUL", "SUB"]))
def test_float32_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = float32_graph(data, op_type)
    code, options_type, _ = CODES[op_type]
    check_reference_matches_tflite_micro(graph, REGISTRY, code, 1, options_type, float32_options(graph))


@settings(max_examples=8)
@given(st.data(), st.sampled_from(["MUL", "SUB"]))
def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(float32_graph(data, op_type), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize("op_type", ["MUL", "SUB"])
@pytest.mark.parametrize("activation", list(Activation))
def test_float32_edge_values_match_tflite_micro(op_type: str, activation: Activation) -> None:
    # Every pair of edge values: overflow, inf * 0 and inf - inf (NaN), signed zeros, subnormals.
    graph = float32_edge_graph(op_type, AddAttributes(activation=activation))
    code, options_type, _ = CODES[op_type]
    edges = FLOAT32_EDGE_VALUES
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        code,
        1,
        options_type,
        float32_options(graph),
        inputs=[[edges.reshape(-1, 1), edges.reshape(1, -1)]],
    )


@pytest.mark.parametrize("op_type", ["MUL", "SUB"])
def test_float32_c_kernel_on_edge_values(op_type: str) -> None:
    # Finite edge values (constants; C has no literal for inf or NaN) against seeded values: 3e38 * 2 overflows.
    finite = FLOAT32_EDGE_VALUES[np.isfinite(FLOAT32_EDGE_VALUES)]
    builder = GraphBuilder()
    a = builder.tensor("a", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
    b = builder.tensor("b", DType.FLOAT32, (1, 8))
    y = builder.tensor("y", DType.FLOAT32, (finite.size, 8))
    graph = builder.single_node_graph(op_type, [a, b], [y], AddAttributes())
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)
