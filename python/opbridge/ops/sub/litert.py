"""SUB: LiteRT importer."""

from typing import Any

import tflite

from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> AddAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return AddAttributes()
    options = tflite.SubOptions()
    options.Init(table.Bytes, table.Pos)
    return AddAttributes(activation=litert_activation(options.FusedActivationFunction()))
