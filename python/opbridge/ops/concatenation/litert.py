"""CONCATENATION: LiteRT importer."""

from typing import Any

import tflite

from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> ConcatenationAttributes:
    table = operator.BuiltinOptions()
    options = tflite.ConcatenationOptions()
    options.Init(table.Bytes, table.Pos)
    return ConcatenationAttributes(axis=options.Axis(), activation=litert_activation(options.FusedActivationFunction()))
