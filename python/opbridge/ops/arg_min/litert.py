# SPDX-License-Identifier: Apache-2.0
"""ARG_MIN: the LiteRT importer (builtin code, versions, options parser: ARG_MAX's, the output tensor's type
as output_type). TFLite versions ARG_MIN 1 for float32 and 2 for int8 (3, bool, is not in TFLite Micro)."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.arg_max.litert import litert_options_parser

parse_litert_options = litert_options_parser("ARG_MIN")

LITERT_CODE = BuiltinOperator.ARG_MIN
LITERT_VERSIONS = frozenset({1, 2})
