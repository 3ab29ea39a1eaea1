# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH: the LiteRT importer (builtin code, versions). Its HardSwishOptions table is empty, and TFLite
has one version for float32 and int8 alike."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.HARD_SWISH
LITERT_VERSIONS = frozenset({1})
