# SPDX-License-Identifier: Apache-2.0
"""RELU6: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.RELU6
LITERT_VERSIONS = frozenset({1, 2, 3})
