# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedOperatorError
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> FullyConnectedAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return FullyConnectedAttributes()
    options = tflite.FullyConnectedOptions()
    options.Init(table.Bytes, table.Pos)
    if options.WeightsFormat() != 0:
        raise UnsupportedOperatorError(
            "FULLY_CONNECTED with shuffled weights is not supported", hint="export with the default weights format"
        )
    return FullyConnectedAttributes(
        activation=litert_activation(options.FusedActivationFunction()),
        keep_num_dims=bool(options.KeepNumDims()),
    )


LITERT_CODE = BuiltinOperator.FULLY_CONNECTED
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9})
