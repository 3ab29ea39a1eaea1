# SPDX-License-Identifier: Apache-2.0
"""RSQRT on float32 and int8.

float32: reference == TFLite Micro bit for bit (seeded and drawn values, every float32 class among them, and the edge
values: -0.0 -> -inf, inf -> 0, NaN below 0), C kernel == reference bit for bit (1.0f / sqrtf is two correctly
rounded operations).

int8: reference == TFLite Micro on every valid stored value (the zero point up to 127) for drawn input and output
quantizations, C kernel == reference on drawn shapes (golden data drawn at or above the zero point); a stored value
below the zero point is an error naming the node, as TFLite Micro fails to invoke; int16 is refused by the schema."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge_testing import strategies
from opbridge_testing.activation_tests import REGISTRY, float32_tests, unary_graph
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro
from opbridge_testing.unary_float_tests import unary_float32_tests

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import InvalidInputError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.operation import validate_graph
from opbridge.ops.rsqrt.reference import inv_sqrt_multiplier
from opbridge.schemas.schema import ShapeInferenceError

# Operators of its graphs besides RSQRT (tests/architecture/operator_deps.py).
USES_OPERATORS = ("relu",)

CODE = schema.BuiltinOperator.RSQRT
OP = "RSQRT"
INT8_VERSION = 2  # TFLite's op_version for int8; float32 is version 1
# sqrtf and the division are correctly rounded: compared bit for bit.
FLOAT_RTOL = None
C_ULPS = 0

(
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference,
    test_float32_edge_values_match_tflite_micro,
) = float32_tests(OP, CODE, cases=3, float_rtol=FLOAT_RTOL, float_ulps=C_ULPS)

# Drawn float32 arrays (every class) against TFLite Micro; the C kernel against the reference on the edge values.
(
    test_drawn_values_match_tflite_micro,
    test_c_kernel_matches_reference_on_edge_values,
) = unary_float32_tests(OP, CODE, float_rtol=FLOAT_RTOL, c_ulps=C_ULPS)


@settings(max_examples=15, deadline=None)
@given(strategies.per_tensor(1e-3, 1.0), strategies.per_tensor(1e-3, 1.0))
def test_int8_every_valid_value_matches_tflite_micro(input_q: Quantization, output_q: Quantization) -> None:
    values = np.arange(input_q.zero_point, 128, dtype=np.int8)
    graph = unary_graph(OP, DType.INT8, values.shape, input_q, output_q)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, INT8_VERSION, inputs=[[values]])


@pytest.mark.parametrize(
    ("input_q", "output_q"),
    [
        (Quantization((0.05,), (-128,)), Quantization((0.02,), (-128,))),  # small outputs: many clamp low... or not
        (Quantization((1.0,), (-128,)), Quantization((1 / 128,), (-128,))),  # v = 1 (the largest multiplier) to 255
        (Quantization((0.001,), (0,)), Quantization((0.5,), (10,))),  # large results clamp at 127
        (Quantization((0.3,), (100,)), Quantization((0.004,), (-100,))),
    ],
    ids=["typical", "whole_range", "clamped", "few_values"],
)
def test_int8_chosen_quantizations_match_tflite_micro(input_q: Quantization, output_q: Quantization) -> None:
    values = np.arange(input_q.zero_point, 128, dtype=np.int8)
    graph = unary_graph(OP, DType.INT8, values.shape, input_q, output_q)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, INT8_VERSION, inputs=[[values]])


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_int8_c_kernel_matches_reference(data: st.DataObject) -> None:
    shape = data.draw(array_shapes(min_dims=1, max_dims=4, max_side=6))
    input_q, output_q = data.draw(strategies.per_tensor(0.005, 0.5)), data.draw(strategies.per_tensor(0.005, 0.5))
    check_c_matches_reference(unary_graph(OP, DType.INT8, shape, input_q, output_q), REGISTRY)


def test_inv_sqrt_multiplier_is_close_to_the_inverse_square_root() -> None:
    for value in range(2, 256):
        multiplier, shift = inv_sqrt_multiplier(value)
        assert abs(multiplier * 2.0**shift / 2**31 - value**-0.5) < 1e-5 * value**-0.5


def test_int8_below_the_zero_point_is_an_error_naming_the_node() -> None:
    quantization = Quantization((0.1,), (5,))
    graph = unary_graph(OP, DType.INT8, (3,), quantization, quantization)
    with pytest.raises(InvalidInputError, match=r"rsqrt_under_test.*holds 4 at flat index 1, below its zero point 5"):
        ReferenceInterpreter(graph, REGISTRY).run([np.array([5, 4, 6], dtype=np.int8)])


def test_int8_constant_below_the_zero_point_is_refused_naming_the_node() -> None:
    quantization = Quantization((0.1,), (5,))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, (3,), quantization)
    c = builder.tensor("c", DType.INT8, (3,), quantization, data=np.array([9, 5, -3], dtype=np.int8))
    joined = builder.tensor("joined", DType.INT8, (6,), quantization)
    square_root = builder.tensor("rsqrt_constant", DType.INT8, (3,), quantization)
    y = builder.tensor("y", DType.INT8, (6,), quantization)
    nodes = [
        Node(0, "constant_rsqrt", OP, [c], [square_root], None),
        Node(1, "join", "CONCATENATION", [x, square_root], [joined], ConcatenationAttributes(axis=0)),
        Node(2, "y", "RELU", [joined], [y], None),
    ]
    graph = Graph("constant", builder.tensors, nodes, [x], [y])
    with pytest.raises(UnsupportedTensorError, match=r"constant_rsqrt.*holds -3 at flat index 2, below its zero point"):
        check_c_matches_reference(graph, REGISTRY)


def test_int16_is_refused_by_the_schema() -> None:
    quantization = Quantization((0.1,), (0,))
    graph = unary_graph(OP, DType.INT16, (4,), quantization, quantization)
    with pytest.raises(ShapeInferenceError, match=r"is int16; opbridge.RSQRT .* allows T in \{int8, float32\}"):
        validate_graph(graph, REGISTRY)
