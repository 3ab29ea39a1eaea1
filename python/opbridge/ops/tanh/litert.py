# SPDX-License-Identifier: Apache-2.0
"""TANH: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.TANH
LITERT_VERSIONS = frozenset({1, 2, 3})
