# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION: the LiteRT importer (builtin code, version, LocalResponseNormalizationOptions:
radius on both sides, bias, alpha multiplying the sum as it is, beta)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.lrn.attributes import LocalResponseNormalizationAttributes


def parse_litert_options(operator: Any) -> LocalResponseNormalizationAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return LocalResponseNormalizationAttributes(radius_before=0, radius_after=0, bias=0.0, alpha=0.0, beta=0.0)
    options = tflite.LocalResponseNormalizationOptions()
    options.Init(table.Bytes, table.Pos)
    return LocalResponseNormalizationAttributes(
        radius_before=options.Radius(),
        radius_after=options.Radius(),
        bias=float(options.Bias()),
        alpha=float(options.Alpha()),
        beta=float(options.Beta()),
    )


LITERT_CODE = BuiltinOperator.LOCAL_RESPONSE_NORMALIZATION
LITERT_VERSIONS = frozenset({1})
