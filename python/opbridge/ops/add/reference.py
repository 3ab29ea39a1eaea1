# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference ADD, int8, int32 and float32.

int8: both inputs are brought to a common scale (twice the larger input
scale) with 20 bits of headroom, added, and rescaled to the output.

int32 (unquantized): the plain sum, wrapping around on overflow. TFLite
Micro ignores the fused activation of an int32 ADD (it clamps to the whole
int32 range), and so does opbridge, to stay bit-exact.

float32: the float32 sum, then the fused activation's clamp (without one,
an infinite sum becomes +-FLT_MAX, as TFLite's clamp makes it).
"""

import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference
from opbridge.ops.shared.integer import broadcast_binary_reference, plain_integer_operands, wrap_integers
from opbridge.ops.shared.quantized import activation_range, require_quantization
from opbridge.ops.shared.wide_dtypes import is_wide, wide_binary_reference
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier

LEFT_SHIFT = 20


@dataclasses.dataclass(frozen=True)
class AddParameters:
    """Rescaling of each input to the common scale, and of the sum to the output."""

    first_multiplier: int
    first_shift: int
    second_multiplier: int
    second_shift: int
    output_multiplier: int
    output_shift: int


def add_parameters(first_q: Quantization, second_q: Quantization, output_q: Quantization) -> AddParameters:
    twice_max_input_scale = 2.0 * max(first_q.scale, second_q.scale)
    first_multiplier, first_shift = quantize_multiplier(first_q.scale / twice_max_input_scale)
    second_multiplier, second_shift = quantize_multiplier(second_q.scale / twice_max_input_scale)
    output_multiplier, output_shift = quantize_multiplier(twice_max_input_scale / ((1 << LEFT_SHIFT) * output_q.scale))
    return AddParameters(
        first_multiplier, first_shift, second_multiplier, second_shift, output_multiplier, output_shift
    )


def is_int32_add(node: Node, first: Tensor, second: Tensor, output: Tensor) -> bool:
    """True for an unquantized int32 ADD (checked); False for the quantized int8 path."""
    if output.dtype is not DType.INT32:
        return False
    plain_integer_operands(node, first, second, output, (DType.INT32,), quantized_ok=False)
    return True


def add_reference(call: ReferenceCall) -> list[Array]:
    if is_wide(call.outputs[0]):
        return wide_binary_reference(call, np.add)
    if call.outputs[0].dtype is DType.FLOAT32:
        return float32_binary_reference(call, np.add, call.attributes.activation)
    if is_int32_add(call.node, call.input_tensor(0), call.input_tensor(1), call.outputs[0]):
        return broadcast_binary_reference(call, lambda a, b: wrap_integers(a + b, DType.INT32), DType.INT32)
    return add_or_sub_reference(call, add_parameters, sign=1)


def add_or_sub_reference(
    call: ReferenceCall, parameters: Callable[[Quantization, Quantization, Quantization], AddParameters], sign: int
) -> list[Array]:
    """int8 ADD (sign 1) or SUB (sign -1): rescale both inputs, combine, rescale to the output."""
    first_q = require_quantization(call.node, call.input_tensor(0), "input 0")
    second_q = require_quantization(call.node, call.input_tensor(1), "input 1")
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    p = parameters(first_q, second_q, output_q)
    first = (call.value(0).astype(np.int64) - first_q.zero_point) << LEFT_SHIFT
    second = (call.value(1).astype(np.int64) - second_q.zero_point) << LEFT_SHIFT
    total = multiply_by_quantized_multiplier(first, p.first_multiplier, p.first_shift)
    total = total + sign * multiply_by_quantized_multiplier(second, p.second_multiplier, p.second_shift)
    result = multiply_by_quantized_multiplier(total, p.output_multiplier, p.output_shift) + output_q.zero_point
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(result, low, high).astype(np.int8).reshape(output.shape)]
