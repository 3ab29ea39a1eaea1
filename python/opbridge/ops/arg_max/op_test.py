# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX: opbridge_testing.arg_min_max_tests, the suite ARG_MAX and ARG_MIN share (the reference against
TFLite Micro and LiteRT, the C module against the reference, errors, ONNX ArgMax against onnxruntime)."""

from opbridge_testing.arg_min_max_tests import ARG_MAX, ArgMinMaxTests

# Operators its graphs gain in conversion (tests/architecture/operator_deps.py):
# ONNX's keepdims=0 adds a RESHAPE.
USES_OPERATORS = ("reshape",)


class TestArgMax(ArgMinMaxTests):
    OP = ARG_MAX
