# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.quantize.attributes import QuantizeAttributes


def parse_litert_options(operator: Any) -> QuantizeAttributes:
    """TFLite's QuantizeOptions has no fields; LiteRT models use TFLite's rounding."""
    return QuantizeAttributes()


LITERT_CODE = BuiltinOperator.QUANTIZE
LITERT_VERSIONS = frozenset({1, 2, 3})
