# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS: the LiteRT importer (builtin code, versions). The axis is the second input; the options table is
empty."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.EXPAND_DIMS
LITERT_VERSIONS = frozenset({1})
