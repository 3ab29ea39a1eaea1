# SPDX-License-Identifier: Apache-2.0
"""POW: the LiteRT importer (builtin code, versions; POW's options table is empty)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.POW
LITERT_VERSIONS = frozenset({1})  # TFLite's only version (its int32 POW is refused by the schema)
