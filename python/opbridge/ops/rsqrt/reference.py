# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's RSQRT, float32 and int8.

float32: 1.0f / sqrtf(x), two correctly rounded float32 operations (so NumPy's float32 sqrt and divide give the same
bits): -inf for -0.0, 0 for inf, NaN below 0 (the C kernel writes 0x7FC00000 there, see opbridge_rsqrt.h).

int8: a function of the stored value q alone, so it is tabulated for the 256 int8 values (`rsqrt_int8_table`),
the C kernel's table too. With v = q - input zero point: v < 0 is an error (TFLite Micro fails to invoke: "Rsqrt is
only defined for positive values"); v == 0 gives 127. Otherwise TFLite's GetInvSqrtQuantizedMultiplierExp(v) (a
normalisation to [2^27, 2^29), five Newton-Raphson steps in gemmlowp's Q3.28 fixed point, times sqrt(2)/2) gives
1/sqrt(v) as a multiplier and shift; 1 is rescaled by it with 20 extra bits, then by the output multiplier
1 / (sqrtf(input scale) * output scale) (float32 product, then double) with 20 bits fewer, offset by the output
zero point and clamped to [-128, 127].
"""

import numpy as np

from opbridge.errors import InvalidInputError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference
from opbridge.ops.shared.quantized import int8_operands
from opbridge.quantization.fixed_point import (
    INT32_MAX,
    INT32_MIN,
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    rounding_divide_by_power_of_two,
    saturating_rounding_doubling_high_mul,
    wrap_int32,
)

# TFLite Micro's kShift: 1/sqrt(v) is taken to the integer 2^20 / sqrt(v) before the output rescale.
EXTRA_SHIFT = 20
# gemmlowp constants in Q3.28 (3 integer bits) and Q0.31.
Q3_ONE = 1 << 28
Q3_THREE_HALVES = (1 << 28) + (1 << 27)
Q0_HALF_SQRT_2 = 1518500250


def _srdhm(a: int, b: int) -> int:
    return int(saturating_rounding_doubling_high_mul(a, b))


def _saturating_shift_left(x: int, exponent: int) -> int:
    """gemmlowp's SaturatingRoundingMultiplyByPOT<exponent> for exponent > 0 on int32."""
    threshold = (1 << (31 - exponent)) - 1
    if x > threshold:
        return INT32_MAX
    if x < -threshold:
        return INT32_MIN
    return x << exponent


def inv_sqrt_multiplier(value: int) -> tuple[int, int]:
    """TFLite's GetInvSqrtQuantizedMultiplierExp(value, reverse_shift=-1): 1/sqrt(value) as (multiplier, shift)."""
    if value <= 1:
        return INT32_MAX, 0
    shift = 11
    while value >= 1 << 29:
        value //= 4
        shift += 1
    leading_zeros = 32 - value.bit_length()
    pairs = (leading_zeros - 1) // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    half_input = int(rounding_divide_by_power_of_two(value >> 1, 1))
    x = Q3_ONE
    for _ in range(5):
        # x*x*x in Q9.22, back to Q3.28; 1.5*x and (v/2)*x^3 in Q6.25, their difference back to Q3.28.
        cube = _saturating_shift_left(_srdhm(_srdhm(x, x), x), 6)
        difference = int(wrap_int32(np.int64(_srdhm(Q3_THREE_HALVES, x) - _srdhm(half_input, cube))))
        x = _saturating_shift_left(difference, 3)
    x = _srdhm(x, Q0_HALF_SQRT_2)
    if shift < 0:
        x = int(wrap_int32(np.int64(x) << -shift))
        shift = 0
    return x, -shift


def rsqrt_output_multiplier(input_q: Quantization, output_q: Quantization) -> tuple[int, int]:
    """TFLite Micro's SetRsqrtOutputMultiplier: 1 / (sqrtf(input scale) * output scale), the product in float32."""
    product = np.sqrt(np.float32(input_q.scale)) * np.float32(output_q.scale)
    return quantize_multiplier(1.0 / float(product))


def rsqrt_int8_value(stored: int, input_q: Quantization, output_q: Quantization, multiplier: int, shift: int) -> int:
    """The int8 RSQRT of one stored value at or above the input's zero point."""
    value = stored - input_q.zero_point
    if value == 0:
        return 127  # TFLite Micro: "any value close to 0 represents the max output value" (no offset, no rescale)
    inv_multiplier, inv_shift = inv_sqrt_multiplier(value)
    scaled = int(multiply_by_quantized_multiplier(1, inv_multiplier, inv_shift + EXTRA_SHIFT))
    result = int(multiply_by_quantized_multiplier(scaled, multiplier, shift - EXTRA_SHIFT)) + output_q.zero_point
    return min(max(result, -128), 127)


def rsqrt_int8_table(input_q: Quantization, output_q: Quantization) -> np.ndarray:
    """The int8 output for each stored input -128..127 (0 below the input's zero point, where RSQRT is an error)."""
    multiplier, shift = rsqrt_output_multiplier(input_q, output_q)
    table = np.zeros(256, dtype=np.int8)
    for stored in range(input_q.zero_point, 128):
        table[stored + 128] = rsqrt_int8_value(stored, input_q, output_q, multiplier, shift)
    return table


def int8_quantizations(node: Node, input_tensor: Tensor, output: Tensor) -> tuple[Quantization, Quantization]:
    input_q, output_q = int8_operands(node, [("input", input_tensor), ("output", output)])
    return input_q, output_q


def check_int8_inputs(node: Node, input_tensor: Tensor, zero_point: int, values: Array) -> None:
    """Every stored input at or above the zero point; else the error TFLite Micro's failed invoke becomes."""
    below = np.flatnonzero(np.asarray(values).ravel() < zero_point)
    if below.size == 0:
        return
    problem = (
        f"{node.describe()}: input {input_tensor.describe()} holds {int(np.asarray(values).ravel()[below[0]])} at "
        f"flat index {int(below[0])}, below its zero point {zero_point} (a negative real value)"
    )
    if input_tensor.is_constant:
        raise UnsupportedTensorError(problem, hint="RSQRT is only defined for values >= 0; fix the model's constant")
    raise InvalidInputError(
        problem,
        hint="TFLite Micro's int8 RSQRT fails on it (only defined for values >= 0), and the C module returns "
        "OPBRIDGE_STATUS_INVALID_ARGUMENT",
    )


def rsqrt_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    if output.dtype is DType.FLOAT32:
        return float32_unary_reference(call, lambda x: np.float32(1.0) / np.sqrt(x))
    input_tensor = call.input_tensor(0)
    input_q, output_q = int8_quantizations(call.node, input_tensor, output)
    values = np.asarray(call.value(0), dtype=np.int8)
    check_int8_inputs(call.node, input_tensor, input_q.zero_point, values)
    table = rsqrt_int8_table(input_q, output_q)
    return [table[values.astype(np.int64) + 128].reshape(output.shape)]


def rsqrt_input_ranges(graph: Graph, node: Node) -> dict[int, tuple[int, int]]:
    """int8: the stored input is valid from its zero point up (golden data is drawn there); float32: anywhere."""
    input_tensor = graph.tensor(node.inputs[0])
    if input_tensor.dtype is not DType.INT8 or input_tensor.quantization is None:
        return {}
    return {0: (input_tensor.quantization.zero_point, 128)}
