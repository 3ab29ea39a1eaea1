# SPDX-License-Identifier: Apache-2.0
"""PAD: the LiteRT importer (builtin code, versions)."""

from tflite.BuiltinOperator import BuiltinOperator

PAD_LITERT_CODE = BuiltinOperator.PAD
PAD_LITERT_VERSIONS = frozenset({1, 2, 3, 4})
PADV2_LITERT_CODE = BuiltinOperator.PADV2
PADV2_LITERT_VERSIONS = frozenset({1, 2, 3, 4})
