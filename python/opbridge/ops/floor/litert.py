# SPDX-License-Identifier: Apache-2.0
"""FLOOR: the LiteRT importer (builtin code, versions). TFLite has one version, float32 (TFLite Micro's FLOOR
is float32 only); there are no options."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.FLOOR
LITERT_VERSIONS = frozenset({1})
