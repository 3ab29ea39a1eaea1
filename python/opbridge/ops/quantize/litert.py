"""QUANTIZE: LiteRT importer."""

from typing import Any

from opbridge.ops.quantize.attributes import QuantizeAttributes


def parse_litert_options(operator: Any) -> QuantizeAttributes:
    """TFLite's QuantizeOptions has no fields; LiteRT models use TFLite's rounding."""
    return QuantizeAttributes()
