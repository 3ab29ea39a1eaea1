# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedOperatorError
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.ops.shared.litert import litert_activation


def has_bias(operator: Any) -> bool:
    return operator.InputsLength() > 2 and int(operator.Inputs(2)) >= 0


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
    if options.QuantizedBiasType() == tflite.TensorType.INT32 and not has_bias(operator):
        # TFLite Micro then accumulates an int16 node in int32 with no bias to say so; opbridge reads the
        # accumulator's type from the bias (int64 when there is none).
        raise UnsupportedOperatorError(
            "FULLY_CONNECTED with quantized_bias_type int32 and no bias is not supported",
            hint="give the layer an int32 bias (zeros), or convert with the default int64 bias",
        )
    return FullyConnectedAttributes(
        activation=litert_activation(options.FusedActivationFunction()),
        keep_num_dims=bool(options.KeepNumDims()),
    )


LITERT_CODE = BuiltinOperator.FULLY_CONNECTED
# Version 11: int16 activations with an int32 bias (quantized_bias_type); earlier 16x8 models carry 1, 5 or 6.
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9, 11})
