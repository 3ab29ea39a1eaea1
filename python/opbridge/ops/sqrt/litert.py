# SPDX-License-Identifier: Apache-2.0
"""SQRT: the LiteRT importer (builtin code, versions). Version 1 is float32 (TFLite's op_version: higher
versions are the quantized kernels opbridge does not implement); there are no options."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.SQRT
LITERT_VERSIONS = frozenset({1})
