# SPDX-License-Identifier: Apache-2.0
"""MINIMUM on int8, int16, int32 and float32 with broadcasting: reference == TFLite Micro, C kernel == reference
(float32: bit for bit; a NaN in either input gives input 1, as TFLite Micro's comparison does).
The tests are MINIMUM's and MAXIMUM's alike: opbridge_testing/min_max_tests.py."""

from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.min_max_tests import min_max_tests

(
    test_reference_matches_tflite_micro,
    test_c_kernel_matches_reference,
    test_float32_c_kernel_matches_reference_exactly,
    test_float32_edge_values_match_tflite_micro,
    test_float32_c_kernel_on_edge_values_exactly,
) = min_max_tests("MINIMUM", schema.BuiltinOperator.MINIMUM)
