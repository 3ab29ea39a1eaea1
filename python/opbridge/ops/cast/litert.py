# SPDX-License-Identifier: Apache-2.0
"""CAST: the LiteRT importer (builtin code, versions, options parser)."""

from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType
from opbridge.ops.cast.attributes import CastAttributes

# tflite.TensorType codes of the types opbridge names (TensorType.INT8 -> DType.INT8, ...).
_DTYPES = {code: DType[name] for name, code in vars(tflite.TensorType).items() if name in DType.__members__}


def parse_litert_options(operator: Any) -> CastAttributes:
    """The output tensor's type, which is what TFLite Micro converts to (it reads no CastOptions).

    The operator is a table of the model's flatbuffer, so its bytes are the
    whole model; the reader reads subgraph 0, the one the operator is in, and
    has checked the output tensor index before any options are parsed.
    """
    model = tflite.Model.GetRootAs(operator._tab.Bytes, 0)
    tensor = model.Subgraphs(0).Tensors(int(operator.Outputs(0)))
    dtype = _DTYPES.get(tensor.Type())
    if dtype is None:
        raise UnsupportedTensorError(
            f"CAST to tflite type {tensor.Type()} is not supported",
            hint="CAST to int8, int16, int32, uint32 or float32",
        )
    return CastAttributes(out_data_type=dtype)


LITERT_CODE = BuiltinOperator.CAST
LITERT_VERSIONS = frozenset({1, 2, 3, 4, 5, 6})
