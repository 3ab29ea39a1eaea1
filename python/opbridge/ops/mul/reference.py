# SPDX-License-Identifier: Apache-2.0
"""MUL: reference implementation."""

import numpy as np

from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference
from opbridge.ops.shared.integer import (
    broadcast_binary_reference,
    int32_activation_range,
    plain_integer_operands,
    wrap_integers,
)
from opbridge.ops.shared.quantized import activation_range, require_quantization
from opbridge.ops.shared.wide_dtypes import is_wide, wide_binary_reference
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier


def is_int32_mul(node: Node, first: Tensor, second: Tensor, output: Tensor) -> bool:
    """True for an int32 MUL (checked; TFLite Micro ignores int32 quantization here); False for int8."""
    if output.dtype is not DType.INT32:
        return False
    plain_integer_operands(node, first, second, output, (DType.INT32,))
    return True


def mul_reference(call: ReferenceCall) -> list[Array]:
    if is_wide(call.outputs[0]):
        return wide_binary_reference(call, np.multiply)
    if call.outputs[0].dtype is DType.FLOAT32:
        return float32_binary_reference(call, np.multiply, call.attributes.activation)
    if is_int32_mul(call.node, call.input_tensor(0), call.input_tensor(1), call.outputs[0]):
        low, high = int32_activation_range(call.attributes.activation)
        return broadcast_binary_reference(
            call, lambda a, b: np.clip(wrap_integers(a * b, DType.INT32), low, high), DType.INT32
        )
    first_q = require_quantization(call.node, call.input_tensor(0), "input 0")
    second_q = require_quantization(call.node, call.input_tensor(1), "input 1")
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    multiplier, shift = quantize_multiplier(first_q.scale * second_q.scale / output_q.scale)
    product = (call.value(0).astype(np.int64) - first_q.zero_point) * (
        call.value(1).astype(np.int64) - second_q.zero_point
    )
    result = multiply_by_quantized_multiplier(product, multiplier, shift) + output_q.zero_point
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(result, low, high).astype(np.int8).reshape(output.shape)]
