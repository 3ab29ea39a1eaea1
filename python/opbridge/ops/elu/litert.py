# SPDX-License-Identifier: Apache-2.0
"""ELU: the LiteRT importer (builtin code, versions, options). TFLite's ELU has no options table: its
alpha is 1. Version 2 (int8) is accepted here so that an int8 model is refused by the schema, with a
message naming the dtype, rather than by its version number."""

from typing import Any

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.elu.attributes import EluAttributes


def parse_litert_options(operator: Any) -> EluAttributes:
    return EluAttributes(alpha=1.0)


LITERT_CODE = BuiltinOperator.ELU
LITERT_VERSIONS = frozenset({1, 2})
