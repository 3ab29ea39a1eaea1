# SPDX-License-Identifier: Apache-2.0
"""RELU6 on int8 (drawn input quantization, kept by the output as TFLite does) and float32: reference == TFLite
Micro, C kernel == reference (float32: bit for bit; NaN and -0.0 pass through, infinities clamp).
The tests are RELU's and RELU6's alike: opbridge_testing/activation_tests.py."""

from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.activation_tests import relu_tests

(
    test_reference_matches_tflite_micro,
    test_c_kernel_matches_reference,
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference,
    test_float32_edge_values_match_tflite_micro,
) = relu_tests("RELU6", schema.BuiltinOperator.RELU6)
