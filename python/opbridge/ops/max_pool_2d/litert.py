# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.MAX_POOL_2D
LITERT_VERSIONS = frozenset({1, 2, 3})
