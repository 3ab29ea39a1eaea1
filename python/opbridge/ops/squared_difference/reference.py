# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference SQUARED_DIFFERENCE, float32, int32 and int8.

float32: d = a - b, then d * d, each rounded to float32 (no clamp: overflow gives inf, inf - inf NaN).

int32 (unquantized): d = a - b, then d * d, both wrapping around modulo 2^32.

int8: each centred input is shifted left by LEFT_SHIFT (7) and rescaled onto a common scale, twice the larger
input scale (multipliers below 1, so shifts <= 0); the difference of the two is squared in int32 (at most
(255 * 2^7)^2 < 2^31) and rescaled to the output by (twice the larger scale)^2 / (2^14 * output scale), then
offset by the output's zero point and clamped to [-128, 127]. TFLite Micro computes the real multipliers in
double from the float32 scales (the output's 2^14 * scale in float32, exact).
"""

import dataclasses

import numpy as np

from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference
from opbridge.ops.shared.integer import broadcast_binary_reference, plain_integer_operands, wrap_integers
from opbridge.ops.shared.quantized import int8_operands
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier

LEFT_SHIFT = 7


@dataclasses.dataclass(frozen=True)
class SquaredDifferenceParameters:
    """Rescaling of each input onto the common scale, and of the squared difference to the output."""

    first_multiplier: int
    first_shift: int
    second_multiplier: int
    second_shift: int
    output_multiplier: int
    output_shift: int


def squared_difference_parameters(
    first_q: Quantization, second_q: Quantization, output_q: Quantization
) -> SquaredDifferenceParameters:
    """TFLite Micro's PrepareQuantized with left_shift 7: double arithmetic on the float32 scales."""
    first_scale, second_scale = float(np.float32(first_q.scale)), float(np.float32(second_q.scale))
    twice_max_input_scale = 2.0 * max(first_scale, second_scale)
    output_denominator = float(np.float32(1 << (2 * LEFT_SHIFT)) * np.float32(output_q.scale))
    first = quantize_multiplier(first_scale / twice_max_input_scale)
    second = quantize_multiplier(second_scale / twice_max_input_scale)
    output = quantize_multiplier(twice_max_input_scale * twice_max_input_scale / output_denominator)
    return SquaredDifferenceParameters(*first, *second, *output)


def int8_quantizations(node: Node, first: Tensor, second: Tensor, output: Tensor) -> list[Quantization]:
    """The three per-tensor int8 quantizations (UnsupportedTensorError unless every operand is quantized int8)."""
    return int8_operands(node, [("input 0", first), ("input 1", second), ("output", output)])


def squared_difference_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    if output.dtype is DType.FLOAT32:
        return float32_binary_reference(call, lambda a, b: (a - b) * (a - b), None)
    if output.dtype is DType.INT32:
        plain_integer_operands(call.node, call.input_tensor(0), call.input_tensor(1), output, (DType.INT32,))

        def squared(a: Array, b: Array) -> Array:
            difference = wrap_integers(a - b, DType.INT32).astype(np.int64)
            return wrap_integers(difference * difference, DType.INT32)

        return broadcast_binary_reference(call, squared, DType.INT32)
    first_q, second_q, output_q = int8_quantizations(call.node, call.input_tensor(0), call.input_tensor(1), output)
    p = squared_difference_parameters(first_q, second_q, output_q)
    first = (call.value(0).astype(np.int64) - first_q.zero_point) << LEFT_SHIFT
    second = (call.value(1).astype(np.int64) - second_q.zero_point) << LEFT_SHIFT
    difference = multiply_by_quantized_multiplier(first, p.first_multiplier, p.first_shift)
    difference = difference - multiply_by_quantized_multiplier(second, p.second_multiplier, p.second_shift)
    result = multiply_by_quantized_multiplier(difference * difference, p.output_multiplier, p.output_shift)
    result = np.clip(result + output_q.zero_point, -128, 127).astype(np.int8)
    return [np.ascontiguousarray(np.broadcast_to(result, output.shape))]
