# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC on drawn input quantization (int8; output scale 1/256, zero point -128) and on float32: reference ==
TFLite Micro, C kernel == reference (float32: within a few ulps, libm's expf).
The tests are LOGISTIC's and TANH's alike: opbridge_testing/activation_tests.py."""

from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.activation_tests import logistic_tanh_tests

from opbridge.ir import Quantization

(
    test_reference_matches_tflite_micro,
    test_c_kernel_matches_reference,
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference,
    test_float32_edge_values_match_tflite_micro,
) = logistic_tanh_tests("LOGISTIC", schema.BuiltinOperator.LOGISTIC, Quantization((1.0 / 256.0,), (-128,)))
