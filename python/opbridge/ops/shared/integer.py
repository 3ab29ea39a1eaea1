# SPDX-License-Identifier: Apache-2.0
"""Plain (unquantized) integer element-wise operators: TFLite Micro computes them on the raw values,
wrapping around on overflow, with 4-D broadcasting (cc/kernels/opbridge_kernels_int.h)."""

from collections.abc import Callable

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ir.attribute_types import Activation
from opbridge.ops.definition import Array, ReferenceCall

INT32_MIN = -(2**31)


INT32_MAX = 2**31 - 1


def wrap_integers(values: Array, dtype: DType) -> Array:
    """Integers reduced modulo 2^bits into `dtype` (C++ static_cast on two's complement)."""
    bits = 8 * dtype.itemsize
    low = np.asarray(values, dtype=np.int64) & ((1 << bits) - 1)
    if np.issubdtype(dtype.numpy, np.signedinteger):
        low = np.where(low >= 1 << (bits - 1), low - (1 << bits), low)
    return low.astype(dtype.numpy)


def int32_activation_range(activation: Activation) -> tuple[int, int]:
    """TFLite's CalculateActivationRange for int32: the clamp of a fused activation on raw values."""
    return {
        Activation.NONE: (INT32_MIN, INT32_MAX),
        Activation.RELU: (0, INT32_MAX),
        Activation.RELU6: (0, 6),
        Activation.RELU_N1_TO_1: (-1, 1),
    }[activation]


def plain_integer_operands(
    node: Node, first: Tensor, second: Tensor, output: Tensor, allowed: tuple[DType, ...], quantized_ok: bool = True
) -> DType:
    """Checks that both inputs and the output share one dtype of `allowed`; returns it.

    With quantized_ok=False, quantized operands are rejected (TFLite Micro's
    int32 ADD and DIV accept only unquantized tensors).
    """
    dtype = output.dtype
    for role, tensor in (("input 0", first), ("input 1", second), ("output", output)):
        if tensor.dtype not in allowed or tensor.dtype is not dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} is {tensor.dtype.value}; this operator supports "
                f"{', '.join(d.value for d in allowed)}, the same for both inputs and the output",
                hint="TFLite Micro computes this operator only on inputs and an output of one type",
            )
        if not quantized_ok and tensor.quantization is not None:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} is quantized",
                hint=f"TFLite Micro's {dtype.value} {node.op_type} takes only unquantized tensors",
            )
    return dtype


def broadcast_binary_reference(
    call: ReferenceCall, operation: Callable[[Array, Array], Array], dtype: DType
) -> list[Array]:
    """`operation` on the two inputs as int64 (broadcast NumPy-style), reshaped to the output."""
    output = call.outputs[0]
    first = call.value(0).astype(np.int64)
    second = call.value(1).astype(np.int64)
    result = np.broadcast_to(operation(first, second), output.shape)
    return [np.ascontiguousarray(result).astype(dtype.numpy)]
