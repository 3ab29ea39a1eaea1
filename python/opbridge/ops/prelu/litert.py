# SPDX-License-Identifier: Apache-2.0
"""PRELU: the LiteRT importer (builtin code, versions; PRELU has no options)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.PRELU
LITERT_VERSIONS = frozenset({1})  # TFLite's only version (its int8 PRELU is refused by the schema)
