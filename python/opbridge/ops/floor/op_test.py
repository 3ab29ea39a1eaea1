# SPDX-License-Identifier: Apache-2.0
"""FLOOR on float32: reference == TFLite Micro bit for bit (seeded and drawn values, every float32 class among
them, and the edge values: -0.0 stays -0.0, halves, values next to integers, the largest non-integers, NaN and the
infinities), C kernel == reference bit for bit (seeded values and the edge values), ONNX Floor == onnxruntime bit
for bit.

The shared runs are in opbridge_testing.unary_float_tests and activation_tests."""

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.activation_tests import REGISTRY, float32_tests, unary_graph
from opbridge_testing.single_op import FLOAT32_EDGE_VALUES, check_reference_matches_tflite_micro
from opbridge_testing.unary_float_tests import (
    check_onnx_matches_onnxruntime,
    int8_refused_test,
    onnx_values,
    unary_float32_tests,
)

from opbridge.ir import DType

CODE = schema.BuiltinOperator.FLOOR
# Where floor is easy to get wrong: halves, one ulp either side of an integer, the largest float32 non-integers
# (2^23 - 0.5) and the smallest float32 integers without a fraction bit (2^23, 2^24 + 2).
FLOOR_EDGE_VALUES = np.array(
    [0.5, 1.5, 2.5, 0.99999994, 1.0000001, 2.9999998, 8388607.5, 8388608.0, 16777218.0, 1e-30, 123456.79],
    dtype=np.float32,
)
EDGE_VALUES = np.concatenate([FLOAT32_EDGE_VALUES, FLOOR_EDGE_VALUES])
# NumPy's and TFLite Micro's results are exact here: compared bit for bit.
FLOAT_RTOL = None
C_ULPS = 0

(
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference,
    test_float32_edge_values_match_tflite_micro,
) = float32_tests("FLOOR", CODE, cases=3, float_rtol=FLOAT_RTOL, float_ulps=C_ULPS)

# Drawn float32 arrays (every class) against TFLite Micro; the C kernel against the reference on EDGE_VALUES.
(
    test_drawn_values_match_tflite_micro,
    test_c_kernel_matches_reference_on_edge_values,
) = unary_float32_tests("FLOOR", CODE, float_rtol=FLOAT_RTOL, c_ulps=C_ULPS, edge_values=EDGE_VALUES)


def test_floor_edge_values_match_tflite_micro() -> None:
    graph = unary_graph("FLOOR", DType.FLOAT32, FLOOR_EDGE_VALUES.shape)
    inputs = [[FLOOR_EDGE_VALUES], [-FLOOR_EDGE_VALUES]]
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, float_rtol=FLOAT_RTOL, inputs=inputs)


test_int8_is_refused_by_the_schema = int8_refused_test("FLOOR")


def test_onnx_floor_matches_onnxruntime() -> None:
    values = onnx_values(EDGE_VALUES, rows=2)
    check_onnx_matches_onnxruntime("Floor", "FLOOR", values)  # bit for bit: -0.0 and NaN signs too
