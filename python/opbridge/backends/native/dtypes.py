"""Element types across the native boundary: ONNX numbers <-> DType <-> NumPy."""

from typing import Any

import numpy as np

from opbridge.ir import DType

# ONNX TensorProto.DataType numbers, which the plugin ABIs use too.
ONNX_DTYPES: dict[int, DType] = {
    1: DType.FLOAT32,
    2: DType.UINT8,
    3: DType.INT8,
    4: DType.UINT16,
    5: DType.INT16,
    6: DType.INT32,
    7: DType.INT64,
    9: DType.BOOL,
    10: DType.FLOAT16,
    11: DType.FLOAT64,
    12: DType.UINT32,
    13: DType.UINT64,
    16: DType.BFLOAT16,
}
ONNX_NUMBERS: dict[DType, int] = {dtype: number for number, dtype in ONNX_DTYPES.items()}


def dtype_of_number(number: int) -> DType | None:
    return ONNX_DTYPES.get(number)


def number_of_array(array: np.ndarray[Any, Any]) -> int | None:
    """The ONNX number of an array's dtype (bfloat16 from ml_dtypes included), or None."""
    for dtype, number in ONNX_NUMBERS.items():
        if dtype is DType.BFLOAT16:
            if array.dtype.name == "bfloat16":
                return number
        elif array.dtype == dtype.numpy:
            return number
    return None


def name_of_number(number: int) -> str:
    dtype = ONNX_DTYPES.get(number)
    return dtype.value if dtype is not None else f"ONNX element type {number}"
