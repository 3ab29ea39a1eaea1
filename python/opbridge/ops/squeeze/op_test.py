# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE on int8, int16, int32 and float32: reference == TFLite Micro, C module == reference (bit for bit: the
bytes are copied).
The tests are RESHAPE's and SQUEEZE's alike: opbridge_testing/reshape_squeeze_tests.py."""

from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.reshape_squeeze_tests import reshape_squeeze_tests

(
    test_reference_matches_tflite_micro,
    test_c_module_copies_and_matches_reference,
    test_float32_c_module_copies_and_matches_reference_exactly,
) = reshape_squeeze_tests("SQUEEZE", schema.BuiltinOperator.SQUEEZE)
