# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference ADD, int8, int16, int32 and float32.

int8: both inputs are brought to a common scale (twice the larger input
scale) with 20 bits of headroom, added, and rescaled to the output.

int16 (TFLite's 16x8 quantization): the same general path with 15 bits of
headroom. TFLite Micro always takes it: it ignores AddOptions.pot_scale_int16
(TFLite's power-of-two-scale path) and accepts any zero points.

int32 (unquantized): the plain sum, wrapping around on overflow. TFLite
Micro ignores the fused activation of an int32 ADD (it clamps to the whole
int32 range), and so does opbridge, to stay bit-exact.

float32: the float32 sum, then the fused activation's clamp (without one,
an infinite sum becomes +-FLT_MAX, as TFLite's clamp makes it).
"""

import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference
from opbridge.ops.shared.integer import broadcast_binary_reference, plain_integer_operands, wrap_integers
from opbridge.ops.shared.quantized import activation_range, require_quantization
from opbridge.ops.shared.wide_dtypes import is_wide, wide_binary_reference
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier, wrap_int32

LEFT_SHIFT = 20
# The headroom of int16 inputs (TFLite Micro's left_shift for an int16 output).
INT16_LEFT_SHIFT = 15
# The headroom of each quantized output type.
LEFT_SHIFTS = {DType.INT8: LEFT_SHIFT, DType.INT16: INT16_LEFT_SHIFT}


@dataclasses.dataclass(frozen=True)
class AddParameters:
    """Rescaling of each input to the common scale, and of the sum to the output."""

    first_multiplier: int
    first_shift: int
    second_multiplier: int
    second_shift: int
    output_multiplier: int
    output_shift: int


def add_parameters(
    first_q: Quantization, second_q: Quantization, output_q: Quantization, left_shift: int = LEFT_SHIFT
) -> AddParameters:
    twice_max_input_scale = 2.0 * max(first_q.scale, second_q.scale)
    first_multiplier, first_shift = quantize_multiplier(first_q.scale / twice_max_input_scale)
    second_multiplier, second_shift = quantize_multiplier(second_q.scale / twice_max_input_scale)
    output_multiplier, output_shift = quantize_multiplier(twice_max_input_scale / ((1 << left_shift) * output_q.scale))
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
    if call.outputs[0].dtype is DType.INT16:
        return add_or_sub_reference(call, int16_add_parameters(call.node), sign=1, dtype=DType.INT16)
    return add_or_sub_reference(call, add_parameters, sign=1)


def int16_add_parameters(node: Node) -> Callable[[Quantization, Quantization, Quantization], AddParameters]:
    """add_parameters with int16's headroom; an output multiplier of 1 or more (an output scale below twice the
    larger input scale / 2^15), which TFLite's rescaling cannot represent, is a typed error naming the node."""

    def parameters(first_q: Quantization, second_q: Quantization, output_q: Quantization) -> AddParameters:
        p = add_parameters(first_q, second_q, output_q, INT16_LEFT_SHIFT)
        if p.output_shift > 0:
            raise UnsupportedTensorError(
                f"{node.describe()}: int16 ADD output scale {output_q.scale} is below twice the larger input "
                f"scale / 2^15; TFLite Micro rescales by a multiplier smaller than one",
                hint="re-quantize the model (TFLite's converter gives the output a larger scale)",
            )
        return p

    return parameters


def add_or_sub_reference(
    call: ReferenceCall,
    parameters: Callable[[Quantization, Quantization, Quantization], AddParameters],
    sign: int,
    dtype: DType = DType.INT8,
) -> list[Array]:
    """int8 (or int16) ADD (sign 1) or SUB (sign -1): rescale both inputs, combine, rescale to the output."""
    first_q = require_quantization(call.node, call.input_tensor(0), "input 0")
    second_q = require_quantization(call.node, call.input_tensor(1), "input 1")
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    p = parameters(first_q, second_q, output_q)
    left_shift = LEFT_SHIFTS[dtype]
    first = wrap_int32((call.value(0).astype(np.int64) - first_q.zero_point) << left_shift)
    second = wrap_int32((call.value(1).astype(np.int64) - second_q.zero_point) << left_shift)
    total = multiply_by_quantized_multiplier(first, p.first_multiplier, p.first_shift)
    total = total + sign * multiply_by_quantized_multiplier(second, p.second_multiplier, p.second_shift)
    result = multiply_by_quantized_multiplier(total, p.output_multiplier, p.output_shift) + output_q.zero_point
    low, high = activation_range(call.attributes.activation, output_q, dtype)
    return [np.clip(result, low, high).astype(dtype.numpy).reshape(output.shape)]
