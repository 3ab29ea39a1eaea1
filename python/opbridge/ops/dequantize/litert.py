# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.DEQUANTIZE
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5})
