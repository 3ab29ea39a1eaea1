# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.TRANSPOSE
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6})
