# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference DIV on int32 (unquantized tensors) and on float32.

TFLite Micro divides with C++'s `/`: the quotient is truncated toward zero
(-7 / 2 is -3, not NumPy's floor -4), then the fused activation clamps the
raw value (RELU6 to [0, 6]). Division by zero, and INT32_MIN / -1, are
undefined in C++ (the host TFLite Micro traps); opbridge defines them as
Cortex-M's SDIV computes them with divide-by-zero trapping off: x / 0 is 0
and INT32_MIN / -1 is INT32_MIN.

float32: the float32 quotient (x / 0 is +-inf or NaN), then the fused
activation's clamp (without one, +-inf becomes +-FLT_MAX).
"""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference
from opbridge.ops.shared.integer import (
    broadcast_binary_reference,
    int32_activation_range,
    plain_integer_operands,
    wrap_integers,
)
from opbridge.ops.shared.wide_dtypes import is_wide, wide_binary_reference


def check_div(node: Node, first: Tensor, second: Tensor, output: Tensor) -> None:
    """Checks an int32 DIV (float32 DIV is checked by elementwise.require_float32)."""
    if output.dtype is not DType.INT32:
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} is {output.dtype.value}; opbridge's DIV supports int32 "
            "and float32",
            hint="TFLite Micro's DIV also has a quantized int8 path, which opbridge does not implement",
        )
    plain_integer_operands(node, first, second, output, (DType.INT32,), quantized_ok=False)


def truncating_divide(numerator: Array, denominator: Array) -> Array:
    """C's int32 `/` on int64 arrays, with x / 0 = 0 and INT32_MIN / -1 wrapping to INT32_MIN."""
    safe = np.where(denominator == 0, 1, denominator)
    quotient = np.abs(numerator) // np.abs(safe)
    quotient = np.where((numerator < 0) != (safe < 0), -quotient, quotient)
    return wrap_integers(np.where(denominator == 0, 0, quotient), DType.INT32)


def div_reference(call: ReferenceCall) -> list[Array]:
    if is_wide(call.outputs[0]):
        return wide_binary_reference(call, np.divide)
    if call.outputs[0].dtype is DType.FLOAT32:
        return float32_binary_reference(call, np.divide, call.attributes.activation)
    check_div(call.node, call.input_tensor(0), call.input_tensor(1), call.outputs[0])
    low, high = int32_activation_range(call.attributes.activation)
    return broadcast_binary_reference(call, lambda a, b: np.clip(truncating_divide(a, b), low, high), DType.INT32)
