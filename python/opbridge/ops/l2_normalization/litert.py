# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION: the LiteRT importer (builtin code, versions, L2NormOptions parser). TFLite versions it 1 for
float32 and 2 for int8."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.l2_normalization.attributes import L2NormalizationAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> L2NormalizationAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return L2NormalizationAttributes()
    options = tflite.L2NormOptions()
    options.Init(table.Bytes, table.Pos)
    return L2NormalizationAttributes(activation=litert_activation(options.FusedActivationFunction()))


LITERT_CODE = BuiltinOperator.L2_NORMALIZATION
LITERT_VERSIONS = frozenset({1, 2})
