# SPDX-License-Identifier: Apache-2.0
"""RESHAPE: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.RESHAPE
LITERT_VERSIONS = frozenset({1, 2})
