# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE: the LiteRT importer (builtin code, versions). TFLite has one version for every dtype; its options
table is empty."""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.ZEROS_LIKE
LITERT_VERSIONS = frozenset({1})
