# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ir.attribute_types import Padding
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.shared.litert import litert_activation


def parse_litert_options(operator: Any) -> Pool2DAttributes:
    table = operator.BuiltinOptions()
    options = tflite.Pool2DOptions()
    options.Init(table.Bytes, table.Pos)
    return Pool2DAttributes(
        padding=Padding(options.Padding()),
        stride_height=options.StrideH(),
        stride_width=options.StrideW(),
        filter_height=options.FilterHeight(),
        filter_width=options.FilterWidth(),
        activation=litert_activation(options.FusedActivationFunction()),
    )


LITERT_CODE = BuiltinOperator.AVERAGE_POOL_2D
LITERT_VERSIONS = frozenset({1, 2, 3})
