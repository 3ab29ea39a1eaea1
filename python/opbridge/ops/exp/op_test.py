# SPDX-License-Identifier: Apache-2.0
"""EXP on float32: reference == TFLite Micro within an ulp or two (libm's expf; seeded values, drawn values
over every float32 class and over the range where exp neither underflows to 0 nor overflows, the edge values),
C kernel == reference within C_ULPS, one ulp (seeded values and the edge values), ONNX Exp == onnxruntime within
ONNX_ULPS.

The shared runs are in opbridge_testing.unary_float_tests and activation_tests."""

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays
from opbridge_testing.activation_tests import float32_tests
from opbridge_testing.unary_float_tests import (
    check_onnx_matches_onnxruntime,
    int8_refused_test,
    onnx_values,
    unary_float32_tests,
)

CODE = schema.BuiltinOperator.EXP
# libm's expf is within an ulp of the correctly rounded reference (glibc: 0.5 ulps and a little):
# TFLite Micro within 2**-22 relative (two ulps), the C kernel within one ulp, onnxruntime within ONNX_ULPS.
FLOAT_RTOL = 2.0**-22
C_ULPS = 1
ONNX_ULPS = 1

(
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference,
    test_float32_edge_values_match_tflite_micro,
) = float32_tests("EXP", CODE, cases=4, float_rtol=FLOAT_RTOL, float_ulps=C_ULPS)

DRAWN_VALUES = arrays(
    np.float32,
    array_shapes(min_dims=1, max_dims=4, max_side=6),
    elements=st.one_of(st.floats(width=32), st.floats(-104.0, 89.0, width=32)),
)

# DRAWN_VALUES against TFLite Micro; the C kernel against the reference on the edge values.
(
    test_drawn_values_match_tflite_micro,
    test_c_kernel_matches_reference_on_edge_values,
) = unary_float32_tests("EXP", CODE, float_rtol=FLOAT_RTOL, c_ulps=C_ULPS, drawn_values=DRAWN_VALUES)

test_int8_is_refused_by_the_schema = int8_refused_test("EXP")


def test_onnx_exp_matches_onnxruntime() -> None:
    check_onnx_matches_onnxruntime("Exp", "EXP", onnx_values(), max_ulps=ONNX_ULPS)  # NaN positions, then ulps
