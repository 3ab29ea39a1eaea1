# SPDX-License-Identifier: Apache-2.0
"""MAXIMUM: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.MAXIMUM
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
