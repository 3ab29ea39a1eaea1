# SPDX-License-Identifier: Apache-2.0
"""The op tests MUL and SUB share (ops/mul/op_test.py, ops/sub/op_test.py): int8 on drawn quantization and
float32, with broadcasting and a drawn fused activation: reference == TFLite Micro, C kernel == reference.

float32 products and differences need no libm, so C and TFLite Micro match the reference bit for bit, on drawn
inputs and on FLOAT32_EDGE_VALUES (overflow, inf * 0 and inf - inf giving NaN, signed zeros, subnormals).
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Activation
from opbridge.ops.add.attributes import AddAttributes

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

REGISTRY = available_operator_registry()


def int8_graph(data: st.DataObject, op_type: str) -> Graph:
    """A drawn int8 binary node of rank 4: each input keeps or broadcasts each dimension; drawn activation."""
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


def float32_graph(data: st.DataObject, op_type: str) -> Graph:
    attributes = AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return broadcast_binary_graph(data, op_type, DType.FLOAT32, attributes)


def litert_options(graph: Graph, options_class: Callable[[], Any]) -> Any:
    """The node's LiteRT options (MulOptionsT or SubOptionsT): its fused activation."""
    options = options_class()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    return options


def mul_sub_tests(
    op_type: str, builtin_code: int, options_type: int, options_class: Callable[[], Any]
) -> tuple[Callable[..., None], ...]:
    """The six test functions of MUL or SUB, for the op's op_test.py to bind by name."""

    def check_against_tflite_micro(graph: Graph, version: int, inputs: list[list[np.ndarray]] | None = None) -> None:
        options = litert_options(graph, options_class)
        check_reference_matches_tflite_micro(
            graph, REGISTRY, builtin_code, version, options_type, options, inputs=inputs
        )

    @settings(max_examples=13)
    @given(st.data())
    def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
        check_against_tflite_micro(int8_graph(data, op_type), 2)

    @settings(max_examples=5)
    @given(st.data())
    def test_c_kernel_matches_reference(data: st.DataObject) -> None:
        check_c_matches_reference(int8_graph(data, op_type), REGISTRY)

    @settings(max_examples=8)
    @given(st.data())
    def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
        check_against_tflite_micro(float32_graph(data, op_type), 1)

    @settings(max_examples=4)
    @given(st.data())
    def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
        check_c_matches_reference(float32_graph(data, op_type), REGISTRY, float_ulp_tolerance=0)

    @pytest.mark.parametrize("activation", list(Activation))
    def test_float32_edge_values_match_tflite_micro(activation: Activation) -> None:
        # Every pair of edge values.
        graph = float32_edge_graph(op_type, AddAttributes(activation=activation))
        edges = FLOAT32_EDGE_VALUES
        check_against_tflite_micro(graph, 1, inputs=[[edges.reshape(-1, 1), edges.reshape(1, -1)]])

    def test_float32_c_kernel_on_edge_values() -> None:
        # Finite edge values (constants; C has no literal for inf or NaN) against seeded values: 3e38 * 2 overflows.
        finite = FLOAT32_EDGE_VALUES[np.isfinite(FLOAT32_EDGE_VALUES)]
        builder = GraphBuilder()
        a = builder.tensor("a", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
        b = builder.tensor("b", DType.FLOAT32, (1, 8))
        y = builder.tensor("y", DType.FLOAT32, (finite.size, 8))
        graph = builder.single_node_graph(op_type, [a, b], [y], AddAttributes())
        check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)

    return (
        test_reference_matches_tflite_micro,
        test_c_kernel_matches_reference,
        test_float32_reference_matches_tflite_micro,
        test_float32_c_kernel_matches_reference_exactly,
        test_float32_edge_values_match_tflite_micro,
        test_float32_c_kernel_on_edge_values,
    )
