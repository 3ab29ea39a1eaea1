# SPDX-License-Identifier: Apache-2.0
"""SUB with broadcasting and a drawn fused activation, int8 on drawn quantization and float32: reference == TFLite
Micro, C kernel == reference (float32: bit for bit, edge values included).
The tests are MUL's and SUB's alike: opbridge_testing/mul_sub_tests.py."""

from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.mul_sub_tests import mul_sub_tests

(
    test_reference_matches_tflite_micro,
    test_c_kernel_matches_reference,
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference_exactly,
    test_float32_edge_values_match_tflite_micro,
    test_float32_c_kernel_on_edge_values,
) = mul_sub_tests("SUB", schema.BuiltinOperator.SUB, schema.BuiltinOptions.SubOptions, schema.SubOptionsT)
