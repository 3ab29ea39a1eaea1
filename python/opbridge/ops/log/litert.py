# SPDX-License-Identifier: Apache-2.0
"""LOG: the LiteRT importer (builtin code, versions). Version 1 is float32 (TFLite's op_version: higher
versions are the quantized kernels opbridge does not implement); there are no options."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.LOG
LITERT_VERSIONS = frozenset({1})
