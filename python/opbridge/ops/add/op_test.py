# SPDX-License-Identifier: Apache-2.0
"""ADD with broadcasting, int8 on drawn quantization, int16 (16x8), plain int32 and float32: reference == TFLite
Micro, C == reference (float32: bit for bit).

int16 is quantized as TFLite's converter quantizes 16x8 activations: symmetric, zero point 0, one scale per tensor;
the output's scale at least the larger input's (a sum's range). TFLite Micro's int16 ADD takes its general path
(left shift 15) whatever AddOptions.pot_scale_int16 says; both settings are drawn."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    float32_edge_graph,
)

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Activation
from opbridge.ops.add.attributes import AddAttributes

REGISTRY = available_operator_registry()


def draw_graph(data: st.DataObject) -> Graph:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(4))
    # Each input keeps or broadcasts (size 1) each dimension.
    first_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    second_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    output_shape = tuple(max(a, b) for a, b in zip(first_shape, second_shape, strict=True))
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, first_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    b = builder.tensor("b", DType.INT8, second_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    y = builder.tensor("sum", DType.INT8, output_shape, data.draw(strategies.per_tensor(0.01, 1.0)))
    attributes = AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return builder.single_node_graph("ADD", [a, b], [y], attributes)


def draw_int16_graph(data: st.DataObject) -> Graph:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(1, 4))))
    first_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    second_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    output_shape = tuple(max(a, b) for a, b in zip(first_shape, second_shape, strict=True))
    first_q = data.draw(strategies.int16_symmetric(1e-5, 1e-2))
    second_q = data.draw(strategies.int16_symmetric(1e-5, 1e-2))
    larger = max(first_q.scale, second_q.scale)
    output_q = Quantization((float(np.float32(larger * data.draw(st.floats(1.0, 8.0)))),), (0,))
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT16, first_shape, first_q)
    b = builder.tensor("b", DType.INT16, second_shape, second_q)
    y = builder.tensor("sum", DType.INT16, output_shape, output_q)
    attributes = AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return builder.single_node_graph("ADD", [a, b], [y], attributes)


@settings(max_examples=30)
@given(st.data(), st.booleans())
def test_int16_reference_matches_tflite_micro(data: st.DataObject, pot_scale_int16: bool) -> None:
    graph = draw_int16_graph(data)
    options = schema.AddOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    options.potScaleInt16 = pot_scale_int16
    # TFLite's ADD versions: 3 for int16 without power-of-two scales, else 1.
    version = 1 if pot_scale_int16 else 3
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.ADD, version, schema.BuiltinOptions.AddOptions, options
    )


@settings(max_examples=12)
@given(st.data())
def test_int16_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_int16_graph(data), REGISTRY)


def test_int16_output_scale_too_small_is_refused() -> None:
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT16, (3,), Quantization((0.01,), (0,)))
    b = builder.tensor("b", DType.INT16, (3,), Quantization((0.01,), (0,)))
    y = builder.tensor("sum", DType.INT16, (3,), Quantization((1e-7,), (0,)))
    graph = builder.single_node_graph("ADD", [a, b], [y], AddAttributes())
    with pytest.raises(UnsupportedTensorError, match=r"add_under_test.*int16 ADD output scale"):
        check_c_matches_reference(graph, REGISTRY)


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    options = schema.AddOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.ADD, 2, schema.BuiltinOptions.AddOptions, options
    )


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY)


@settings(max_examples=25)
@given(st.data())
def test_int32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    # TFLite Micro ignores an int32 ADD's fused activation; drawing one checks that opbridge does too.
    graph = broadcast_binary_graph(
        data, "ADD", DType.INT32, AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    )
    options = schema.AddOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.ADD, 1, schema.BuiltinOptions.AddOptions, options
    )


@settings(max_examples=10)
@given(st.data())
def test_int32_c_kernel_matches_reference(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(
        data, "ADD", DType.INT32, AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    )
    check_c_matches_reference(graph, REGISTRY)


# float32 -----------------------------------------------------------------------
# Sums need no libm, so the reference equals TFLite Micro and the C kernel bit for bit.


def float32_graph(data: st.DataObject) -> Graph:
    attributes = AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return broadcast_binary_graph(data, "ADD", DType.FLOAT32, attributes)


@settings(max_examples=15)
@given(st.data())
def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = float32_graph(data)
    options = schema.AddOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.ADD, 1, schema.BuiltinOptions.AddOptions, options
    )


@settings(max_examples=8)
@given(st.data())
def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
    check_c_matches_reference(float32_graph(data), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize("activation", list(Activation))
def test_float32_edge_values_match_tflite_micro(activation: Activation) -> None:
    # Every pair of edge values: overflow to inf (FLT_MAX without an activation), inf - inf, NaN, -0.0 + -0.0, ...
    graph = float32_edge_graph("ADD", AddAttributes(activation=activation))
    options = schema.AddOptionsT()
    options.fusedActivationFunction = activation.value
    edges = FLOAT32_EDGE_VALUES
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.ADD,
        1,
        schema.BuiltinOptions.AddOptions,
        options,
        inputs=[[edges.reshape(-1, 1), edges.reshape(1, -1)]],
    )


def test_float32_c_kernel_on_edge_values() -> None:
    # Finite edge values (C has no literal for inf or NaN constants) against seeded values.
    finite = FLOAT32_EDGE_VALUES[np.isfinite(FLOAT32_EDGE_VALUES)]
    for activation in (Activation.NONE, Activation.RELU6):
        builder = GraphBuilder()
        a = builder.tensor("a", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
        b = builder.tensor("b", DType.FLOAT32, (1, 8))
        y = builder.tensor("sum", DType.FLOAT32, (finite.size, 8))
        graph = builder.single_node_graph("ADD", [a, b], [y], AddAttributes(activation=activation))
        check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)
