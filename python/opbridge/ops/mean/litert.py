"""MEAN: LiteRT importer."""

from typing import Any

import tflite

from opbridge.ops.mean.attributes import MeanAttributes


def parse_litert_options(operator: Any) -> MeanAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return MeanAttributes()
    options = tflite.ReducerOptions()
    options.Init(table.Bytes, table.Pos)
    return MeanAttributes(keep_dims=bool(options.KeepDims()))
