from typing import Any

import tflite

from opbridge.ops.softmax.attributes import SoftmaxAttributes


def parse_litert_options(operator: Any) -> SoftmaxAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return SoftmaxAttributes()
    options = tflite.SoftmaxOptions()
    options.Init(table.Bytes, table.Pos)
    return SoftmaxAttributes(beta=float(options.Beta()))
