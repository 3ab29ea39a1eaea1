# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.LOGISTIC
LITERT_VERSIONS = frozenset({1, 2, 3})
