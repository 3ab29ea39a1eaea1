# SPDX-License-Identifier: Apache-2.0
"""SQUARED_DIFFERENCE: the LiteRT importer (builtin code, versions). TFLite's op_version: 2 for int8, 1 for
float32 and int32; its options table is empty."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.SQUARED_DIFFERENCE
LITERT_VERSIONS = frozenset({1, 2})
