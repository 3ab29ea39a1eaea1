# SPDX-License-Identifier: Apache-2.0
"""TILE: the LiteRT importer (builtin code, versions; TileOptions is empty)."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.TILE
# TFLite's versions: 1 float32, int32 and others, 2 string, 3 int8.
LITERT_VERSIONS = frozenset({1, 2, 3})
