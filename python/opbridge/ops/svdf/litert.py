# SPDX-License-Identifier: Apache-2.0
"""SVDF: the LiteRT importer (builtin code, versions, options parser).

Versions: 1 (float32) and 3 (int8 input with int16 or int8 time weights and state). Version 2
(hybrid: float32 input, int8 weights) and 4 (hybrid with asymmetric_quantize_inputs) are not supported.
"""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedOperatorError
from opbridge.ops.shared.litert import litert_activation
from opbridge.ops.svdf.attributes import SvdfAttributes


def parse_litert_options(operator: Any) -> SvdfAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        raise UnsupportedOperatorError(
            "SVDF without SVDFOptions: its rank is unknown", hint="re-export the model; SVDF always carries its rank"
        )
    options = tflite.SVDFOptions()
    options.Init(table.Bytes, table.Pos)
    if options.AsymmetricQuantizeInputs():
        raise UnsupportedOperatorError(
            "SVDF with asymmetric_quantize_inputs (a hybrid kernel) is not supported",
            hint="quantize the whole model to int8 (int8 input, int16 state), or keep it float32",
        )
    rank = int(options.Rank())
    if rank < 1:
        raise UnsupportedOperatorError(
            f"SVDF with rank {rank}", hint="the rank must be at least 1; re-export the model"
        )
    return SvdfAttributes(rank=rank, activation=litert_activation(options.FusedActivationFunction()))


LITERT_CODE = BuiltinOperator.SVDF
LITERT_VERSIONS = frozenset({1, 3})
