# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import ModelFormatError, UnsupportedTensorError
from opbridge.ir import DType
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.ops.quantize.schema import QUANTIZE_PAIRS, unsupported_pair

# tflite.TensorType codes of the types opbridge names (TensorType.INT8 -> DType.INT8, ...).
_DTYPES = {code: DType[name] for name, code in vars(tflite.TensorType).items() if name in DType.__members__}
_TYPE_NAMES = {code: name.lower() for name, code in vars(tflite.TensorType).items() if not name.startswith("_")}


def parse_litert_options(operator: Any) -> QuantizeAttributes:
    """TFLite's QuantizeOptions has no fields; LiteRT models use TFLite's rounding, and the output
    tensor's type is what TFLite Micro quantizes to: a pair of QUANTIZE_PAIRS with the input's type,
    else an error naming both (the reader adds the node).

    The operator is a table of the model's flatbuffer, so its bytes are the whole model; the
    reader reads subgraph 0, the one the operator is in, and has checked the tensor indices
    before any options are parsed (as for CAST); an empty input list or an omitted input (-1) is
    refused here, before its type is looked up.
    """
    if operator.InputsLength() < 1:
        raise ModelFormatError("QUANTIZE has no input", hint="QUANTIZE takes one input tensor; re-export the model")
    if operator.Inputs(0) < 0:
        raise ModelFormatError(
            "QUANTIZE's input is omitted (tensor index -1)", hint="QUANTIZE takes one input tensor; re-export the model"
        )
    model = tflite.Model.GetRootAs(operator._tab.Bytes, 0)
    tensors = model.Subgraphs(0)
    source_code = tensors.Tensors(int(operator.Inputs(0))).Type()
    target_code = tensors.Tensors(int(operator.Outputs(0))).Type()
    source, target = _DTYPES.get(source_code), _DTYPES.get(target_code)
    if source is None or target is None or (source, target) not in QUANTIZE_PAIRS:
        problem, hint = unsupported_pair(
            source or _TYPE_NAMES.get(source_code, f"tflite type {source_code}"),
            target or _TYPE_NAMES.get(target_code, f"tflite type {target_code}"),
        )
        raise UnsupportedTensorError(problem, hint=hint)
    return QuantizeAttributes(output_dtype=target)


# Version 2 quantizes to int16, version 3 per channel (refused: one output scale).
LITERT_CODE = BuiltinOperator.QUANTIZE
LITERT_VERSIONS = frozenset({1, 2, 3})
