# SPDX-License-Identifier: Apache-2.0
"""NEG on float32: reference == TFLite Micro bit for bit (seeded and drawn values, every float32 class among
them, and the edge values: 0.0 -> -0.0, NaN keeps its payload), C kernel == reference bit for bit (seeded values
and the edge values), ONNX Neg == onnxruntime bit for bit.

The shared runs are in opbridge_testing.unary_float_tests and activation_tests."""

from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.activation_tests import float32_tests
from opbridge_testing.unary_float_tests import (
    check_onnx_matches_onnxruntime,
    int8_refused_test,
    onnx_values,
    unary_float32_tests,
)

CODE = schema.BuiltinOperator.NEG
# NumPy's and TFLite Micro's results are exact here: compared bit for bit.
FLOAT_RTOL = None
C_ULPS = 0

(
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference,
    test_float32_edge_values_match_tflite_micro,
) = float32_tests("NEG", CODE, cases=3, float_rtol=FLOAT_RTOL, float_ulps=C_ULPS)

# Drawn float32 arrays (every class) against TFLite Micro; the C kernel against the reference on the edge values.
(
    test_drawn_values_match_tflite_micro,
    test_c_kernel_matches_reference_on_edge_values,
) = unary_float32_tests("NEG", CODE, float_rtol=FLOAT_RTOL, c_ulps=C_ULPS)

test_int8_is_refused_by_the_schema = int8_refused_test("NEG")


def test_onnx_neg_matches_onnxruntime() -> None:
    check_onnx_matches_onnxruntime("Neg", "NEG", onnx_values())  # bit for bit: -0.0 and NaN signs too
