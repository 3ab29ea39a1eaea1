# SPDX-License-Identifier: Apache-2.0
"""ONNX TensorProto.DataType numbers <-> DType (the native plugin ABIs number dtypes the same way)."""

from opbridge.ir import DType

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
