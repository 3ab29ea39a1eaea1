# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedTensorError
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.ops.quantize.schema import QUANTIZE_OUTPUT_DTYPES

# tflite.TensorType codes of the output types opbridge quantizes to.
_OUTPUT_DTYPES = {getattr(tflite.TensorType, dtype.name): dtype for dtype in QUANTIZE_OUTPUT_DTYPES}


def parse_litert_options(operator: Any) -> QuantizeAttributes:
    """TFLite's QuantizeOptions has no fields; LiteRT models use TFLite's rounding, and the output
    tensor's type (int8, or int16 in 16x8 models) is what TFLite Micro quantizes to.

    The operator is a table of the model's flatbuffer, so its bytes are the whole model; the
    reader reads subgraph 0, the one the operator is in, and has checked the output tensor index
    before any options are parsed (as for CAST).
    """
    model = tflite.Model.GetRootAs(operator._tab.Bytes, 0)
    tensor = model.Subgraphs(0).Tensors(int(operator.Outputs(0)))
    dtype = _OUTPUT_DTYPES.get(tensor.Type())
    if dtype is None:
        raise UnsupportedTensorError(
            f"QUANTIZE to tflite type {tensor.Type()} is not supported",
            hint="quantize to int8, or to int16 (TFLite's 16x8 quantization)",
        )
    return QuantizeAttributes(output_dtype=dtype)


# Version 2 quantizes to int16, version 3 per channel (refused: one output scale).
LITERT_CODE = BuiltinOperator.QUANTIZE
LITERT_VERSIONS = frozenset({1, 2, 3})
