# SPDX-License-Identifier: Apache-2.0
"""DEPTHWISE_CONV_2D: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ir.attribute_types import Padding
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> DepthwiseConv2DAttributes:
    table = operator.BuiltinOptions()
    options = tflite.DepthwiseConv2DOptions()
    options.Init(table.Bytes, table.Pos)
    return DepthwiseConv2DAttributes(
        padding=Padding(options.Padding()),
        stride_height=options.StrideH(),
        stride_width=options.StrideW(),
        dilation_height=options.DilationHFactor(),
        dilation_width=options.DilationWFactor(),
        depth_multiplier=options.DepthMultiplier(),
        activation=litert_activation(options.FusedActivationFunction()),
    )


LITERT_CODE = BuiltinOperator.DEPTHWISE_CONV_2D
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7})
