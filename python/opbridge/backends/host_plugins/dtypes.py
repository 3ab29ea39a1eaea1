# SPDX-License-Identifier: Apache-2.0
"""Element types across the native boundary: ONNX numbers <-> DType <-> NumPy."""

from typing import Any

import numpy as np

from opbridge.ir import DType

# ONNX TensorProto.DataType numbers, which the plugin ABIs use too.
from opbridge.ir.onnx_dtypes import ONNX_DTYPES, ONNX_NUMBERS


def dtype_of_number(number: int) -> DType | None:
    return ONNX_DTYPES.get(number)


# NumPy dtype -> ONNX number, for the types NumPy has itself (bfloat16 comes from ml_dtypes).
_NUMBERS_OF_NUMPY: dict[np.dtype[Any], int] = {
    dtype.numpy: number for dtype, number in ONNX_NUMBERS.items() if dtype is not DType.BFLOAT16
}


def number_of_array(array: np.ndarray[Any, Any]) -> int | None:
    """The ONNX number of an array's dtype (bfloat16 from ml_dtypes included), or None."""
    number = _NUMBERS_OF_NUMPY.get(array.dtype)
    if number is None and array.dtype.name == "bfloat16":
        return ONNX_NUMBERS[DType.BFLOAT16]
    return number


_STRING = 8  # TensorProto.STRING


def name_of_number(number: int) -> str:
    dtype = ONNX_DTYPES.get(number)
    if dtype is not None:
        return dtype.value
    return "string" if number == _STRING else f"ONNX element type {number}"
