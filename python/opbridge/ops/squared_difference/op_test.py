# SPDX-License-Identifier: Apache-2.0
"""SQUARED_DIFFERENCE with broadcasting on int8 (drawn quantization), int32 and float32: reference == TFLite Micro,
C kernel == reference. float32 needs no libm (one subtraction, one multiplication), so C and TFLite Micro match
the reference bit for bit, on drawn inputs and on every pair of FLOAT32_EDGE_VALUES (overflow to inf, inf - inf
giving NaN, signed zeros, subnormals). int8 is also checked on every pair of int8 values, so every intermediate
of the fixed-point path is reached; int32 wraps around as TFLite Micro's does."""

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
from opbridge.ops.operation import validate_graph
from opbridge.ops.squared_difference.reference import squared_difference_parameters
from opbridge.schemas.schema import ShapeInferenceError

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.SQUARED_DIFFERENCE
OP = "SQUARED_DIFFERENCE"
INT8_VERSION = 2  # TFLite's op_version for int8 inputs; float32 and int32 are version 1


def int8_graph(data: st.DataObject) -> Graph:
    """A drawn int8 node of rank 4: each input keeps or broadcasts each dimension, each has its own quantization."""
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(4))
    first_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    second_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    output_shape = tuple(max(a, b) for a, b in zip(first_shape, second_shape, strict=True))
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, first_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    b = builder.tensor("b", DType.INT8, second_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    y = builder.tensor("y", DType.INT8, output_shape, data.draw(strategies.per_tensor(0.001, 1.0)))
    return builder.single_node_graph(OP, [a, b], [y], None)


def every_int8_pair_graph(first_q: Quantization, second_q: Quantization, output_q: Quantization) -> Graph:
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, (256, 1), first_q)
    b = builder.tensor("b", DType.INT8, (1, 256), second_q)
    y = builder.tensor("y", DType.INT8, (256, 256), output_q)
    return builder.single_node_graph(OP, [a, b], [y], None)


EVERY_INT8 = np.arange(-128, 128, dtype=np.int8)


@settings(max_examples=12)
@given(st.data())
def test_int8_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_reference_matches_tflite_micro(int8_graph(data), REGISTRY, CODE, INT8_VERSION)


@settings(max_examples=5)
@given(st.data())
def test_int8_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(int8_graph(data), REGISTRY)


@settings(max_examples=6)
@given(
    strategies.per_tensor(1e-3, 1.0),
    strategies.per_tensor(1e-3, 1.0),
    strategies.per_tensor(1e-4, 2.0),
)
def test_int8_every_pair_matches_tflite_micro(
    first_q: Quantization, second_q: Quantization, out_q: Quantization
) -> None:
    graph = every_int8_pair_graph(first_q, second_q, out_q)
    inputs = [[EVERY_INT8.reshape(256, 1), EVERY_INT8.reshape(1, 256)]]
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, INT8_VERSION, inputs=inputs)


@pytest.mark.parametrize(
    "scales",
    [(0.02, 0.02, 0.5), (0.5, 0.005, 1e-3), (0.003, 0.4, 3.0), (0.1, 0.1, 1e-5)],
    ids=["equal", "first_larger", "second_larger", "output_tiny"],
)
def test_int8_every_pair_c_kernel_matches_reference(scales: tuple[float, float, float]) -> None:
    first_q = Quantization((scales[0],), (-128,))
    second_q = Quantization((scales[1],), (127,))
    output_q = Quantization((scales[2],), (-3,))
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, (256, 1), first_q, data=EVERY_INT8.reshape(256, 1))
    b = builder.tensor("b", DType.INT8, (1, 256), second_q)
    y = builder.tensor("y", DType.INT8, (256, 256), output_q)
    graph = builder.single_node_graph(OP, [a, b], [y], None)
    check_c_matches_reference(graph, REGISTRY, cases=2)


def test_int8_parameters_are_below_one_for_the_inputs() -> None:
    p = squared_difference_parameters(
        Quantization((0.25,), (0,)), Quantization((0.0625,), (0,)), Quantization((0.5,), (0,))
    )
    # 0.25 / 0.5 = 2^-1 and 0.0625 / 0.5 = 2^-3: mantissa 0.5 (2^30), exponents 0 and -2.
    assert (p.first_multiplier, p.first_shift) == (1 << 30, 0)
    assert (p.second_multiplier, p.second_shift) == (1 << 30, -2)
    # 0.5^2 / (2^14 * 0.5) = 2^-15: exponent -14.
    assert (p.output_multiplier, p.output_shift) == (1 << 30, -14)


@settings(max_examples=6)
@given(st.data())
def test_int32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(data, OP, DType.INT32, None)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1)


@settings(max_examples=3)
@given(st.data())
def test_int32_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(broadcast_binary_graph(data, OP, DType.INT32, None), REGISTRY)


def test_int32_wraps_as_tflite_micro() -> None:
    values = np.array([0, 1, -1, 46340, 46341, -46341, 65536, 2**31 - 1, -(2**31), 123456789], dtype=np.int32)
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT32, (values.size, 1))
    b = builder.tensor("b", DType.INT32, (1, values.size))
    y = builder.tensor("y", DType.INT32, (values.size, values.size))
    graph = builder.single_node_graph(OP, [a, b], [y], None)
    inputs = [[values.reshape(-1, 1), values.reshape(1, -1)]]
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, inputs=inputs)


@settings(max_examples=8)
@given(st.data())
def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(data, OP, DType.FLOAT32, None)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1)


@settings(max_examples=4)
@given(st.data())
def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(data, OP, DType.FLOAT32, None)
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)


def test_float32_edge_values_match_tflite_micro() -> None:
    # Every pair of edge values.
    edges = FLOAT32_EDGE_VALUES
    inputs = [[edges.reshape(-1, 1), edges.reshape(1, -1)]]
    check_reference_matches_tflite_micro(float32_edge_graph(OP, None), REGISTRY, CODE, 1, inputs=inputs)


def test_float32_c_kernel_on_edge_values() -> None:
    # Finite edge values (constants; C has no literal for inf or NaN) against seeded values: 3e38 - x overflows.
    finite = FLOAT32_EDGE_VALUES[np.isfinite(FLOAT32_EDGE_VALUES)]
    builder = GraphBuilder()
    a = builder.tensor("a", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
    b = builder.tensor("b", DType.FLOAT32, (1, 8))
    y = builder.tensor("y", DType.FLOAT32, (finite.size, 8))
    graph = builder.single_node_graph(OP, [a, b], [y], None)
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)


def test_int16_is_refused_by_the_schema() -> None:
    quantization = Quantization((0.1,), (0,))
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT16, (4,), quantization)
    b = builder.tensor("b", DType.INT16, (4,), quantization)
    y = builder.tensor("y", DType.INT16, (4,), quantization)
    graph = builder.single_node_graph(OP, [a, b], [y], None)
    with pytest.raises(ShapeInferenceError, match=r"is int16; opbridge.SQUARED_DIFFERENCE .* allows T in"):
        validate_graph(graph, REGISTRY)


def test_unquantized_int8_is_refused_naming_the_node() -> None:
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, (4,))
    b = builder.tensor("b", DType.INT8, (4,))
    y = builder.tensor("y", DType.INT8, (4,))
    graph = builder.single_node_graph(OP, [a, b], [y], None)
    with pytest.raises(UnsupportedTensorError, match=r"squared_difference_under_test.*no quantization parameters"):
        check_c_matches_reference(graph, REGISTRY)
