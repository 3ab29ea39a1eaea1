# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import ModelFormatError
from opbridge.ir.attribute_types import Padding
from opbridge.ops.shared.litert import litert_activation
from opbridge.ops.transpose_conv.attributes import TransposeConvAttributes


def parse_litert_options(operator: Any) -> TransposeConvAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        # TFLite leaves padding and strides unset (0) then, which TFLite Micro cannot run.
        raise ModelFormatError(
            "TRANSPOSE_CONV has no TransposeConvOptions", hint="export the model with its padding and strides"
        )
    options = tflite.TransposeConvOptions()
    options.Init(table.Bytes, table.Pos)
    return TransposeConvAttributes(
        padding=Padding(options.Padding()),
        stride_height=options.StrideH(),
        stride_width=options.StrideW(),
        activation=litert_activation(options.FusedActivationFunction()),
    )


LITERT_CODE = BuiltinOperator.TRANSPOSE_CONV
# The versions TFLite writes a float32 TRANSPOSE_CONV with: 1, 3 with a bias input, 4 with a fused
# activation (2 is int8, 5 int16 with a quantized bias type).
LITERT_VERSIONS = frozenset({1, 3, 4})
