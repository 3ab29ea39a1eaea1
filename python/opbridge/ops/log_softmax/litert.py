# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX: the LiteRT importer (builtin code, versions). LogSoftmaxOptions is an empty table.

Version 2 (int8) is accepted here so that an int8 model is refused by the schema, with a message naming
the dtype, rather than by its version number.
"""

from tflite.BuiltinOperator import BuiltinOperator

LITERT_CODE = BuiltinOperator.LOG_SOFTMAX
LITERT_VERSIONS = frozenset({1, 2})
