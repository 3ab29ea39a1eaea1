# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D on int8 and float32, drawn windows, strides, paddings and fused activations: reference == TFLite
Micro, C kernel == reference (float32: bit for bit, edge values included).
The tests are AVERAGE_POOL_2D's and MAX_POOL_2D's alike: opbridge_testing/pool_2d_tests.py."""

from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.pool_2d_tests import pool_2d_tests

(
    test_reference_matches_tflite_micro,
    test_c_kernel_matches_reference,
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference_exactly,
    test_float32_edge_values_match_tflite_micro,
) = pool_2d_tests("AVERAGE_POOL_2D", schema.BuiltinOperator.AVERAGE_POOL_2D)
