# SPDX-License-Identifier: Apache-2.0
"""ADD, SUB, MUL and DIV on the wide dtypes ONNX models carry: int64 and float64.

int64 (parameters exported as int64) wraps around on overflow, in NumPy here and in the C kernels
of cc/kernels/opbridge_arithmetic_s64.c (ADD, SUB, MUL; no fused activation). float64 (models
exported in double precision) runs in the host reference only, with NumPy's float64 arithmetic:
emitted modules have no float64 kernels, and aot/resolve.py refuses every float64 tensor before any
C is written, naming it and the fix.
"""

from collections.abc import Callable

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Tensor
from opbridge.ir.attribute_types import Activation
from opbridge.ops.definition import Array, ReferenceCall

WIDE_DTYPES = (DType.INT64, DType.FLOAT64)
S64_KERNELS_HEADER = "cc/kernels/opbridge_arithmetic_s64.h"


def is_wide(tensor: Tensor) -> bool:
    return tensor.dtype in WIDE_DTYPES


def wide_binary_reference(call: ReferenceCall, operation: Callable[[Array, Array], Array]) -> list[Array]:
    """`operation` on two inputs of the output's dtype (int64 or float64), broadcast NumPy-style."""
    output = call.outputs[0]
    for role, tensor in (("input 0", call.input_tensor(0)), ("input 1", call.input_tensor(1))):
        if tensor.dtype is not output.dtype:
            raise UnsupportedTensorError(
                f"{call.node.describe()}: {role} {tensor.describe()} is not {output.dtype.value} like the output",
                hint="give both inputs and the output one dtype",
            )
    activation = getattr(call.attributes, "activation", Activation.NONE)
    if activation is not Activation.NONE:
        raise UnsupportedTensorError(
            f"{call.node.describe()}: a fused {activation.name} on {output.dtype.value} values",
            hint="fused activations are for float32, int32 and int8 nodes",
        )
    with np.errstate(all="ignore"):  # int64 wraps around, float64 overflows to inf, as in C
        result = operation(np.asarray(call.value(0)), np.asarray(call.value(1)))
    return [np.asarray(result, dtype=output.dtype.numpy).reshape(output.shape)]
