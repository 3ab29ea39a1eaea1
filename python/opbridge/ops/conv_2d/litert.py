# SPDX-License-Identifier: Apache-2.0
"""CONV_2D: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ir.attribute_types import Padding
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> Conv2DAttributes:
    table = operator.BuiltinOptions()
    options = tflite.Conv2DOptions()
    options.Init(table.Bytes, table.Pos)
    return Conv2DAttributes(
        padding=Padding(options.Padding()),
        stride_height=options.StrideH(),
        stride_width=options.StrideW(),
        dilation_height=options.DilationHFactor(),
        dilation_width=options.DilationWFactor(),
        activation=litert_activation(options.FusedActivationFunction()),
    )


LITERT_CODE = BuiltinOperator.CONV_2D
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6})
