# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX: the LiteRT importer (builtin code, versions, options parser; ARG_MIN's parser is the same).

TFLite versions ARG_MAX and ARG_MIN 1 for float32 and 2 for int8 (3, bool, is not in TFLite Micro's kernel).
"""

from collections.abc import Callable
from typing import Any

import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType
from opbridge.ops.arg_max.attributes import ArgMinMaxAttributes

# tflite.TensorType codes of the index types.
_INDEX_DTYPES = {tflite.TensorType.INT32: DType.INT32, tflite.TensorType.INT64: DType.INT64}


def litert_options_parser(op_type: str) -> Callable[[Any], ArgMinMaxAttributes]:
    """A parser that takes output_type from the output tensor's type: TFLite Micro writes the indices in that
    type (its kernel reads no ArgMaxOptions; converters set ArgMaxOptions.output_type to the same).

    The operator is a table of the model's flatbuffer, so its bytes are the whole model; the reader reads
    subgraph 0, the one the operator is in, and has checked the output tensor index before any options are
    parsed.
    """

    def parse(operator: Any) -> ArgMinMaxAttributes:
        model = tflite.Model.GetRootAs(operator._tab.Bytes, 0)
        tensor = model.Subgraphs(0).Tensors(int(operator.Outputs(0)))
        dtype = _INDEX_DTYPES.get(tensor.Type())
        if dtype is None:
            raise UnsupportedTensorError(
                f"{op_type}: output tensor {tensor.Name().decode(errors='replace')!r} is of tflite type "
                f"{tensor.Type()}, not int32 or int64",
                hint="the indices must be int32 or int64",
            )
        return ArgMinMaxAttributes(output_type=dtype)

    return parse


parse_litert_options = litert_options_parser("ARG_MAX")

LITERT_CODE = BuiltinOperator.ARG_MAX
LITERT_VERSIONS = frozenset({1, 2})
