from typing import Any

import tflite

from opbridge.ops.div.attributes import DivAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> DivAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return DivAttributes()
    options = tflite.DivOptions()
    options.Init(table.Bytes, table.Pos)
    return DivAttributes(activation=litert_activation(options.FusedActivationFunction()))
