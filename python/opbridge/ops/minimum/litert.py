# SPDX-License-Identifier: Apache-2.0
"""MINIMUM: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.MINIMUM
LITERT_VERSIONS = frozenset({1, 2, 3, 4})
