# SPDX-License-Identifier: Apache-2.0
"""RSQRT: the LiteRT importer (builtin code, versions). TFLite's op_version: 1 for float32, 2 for int8 (3, int16,
is not implemented; TFLite Micro has no int16 RSQRT either); there are no options."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.RSQRT
LITERT_VERSIONS = frozenset({1, 2})
