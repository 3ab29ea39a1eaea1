# SPDX-License-Identifier: Apache-2.0
"""RELU6: reference implementation."""

import numpy as np

from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference
from opbridge.ops.shared.quantized import INT8_MAX, INT8_MIN, float32_divide, requantize, require_quantization
from opbridge.quantization.fixed_point import round_half_away_from_zero

# Q0.31 multiplier 2^30 with shift 1 rescales by exactly 1.
IDENTITY_MULTIPLIER, IDENTITY_SHIFT = 1 << 30, 1


def relu6_bounds(node: Node, input_tensor: Tensor) -> tuple[int, int, int]:
    """(zero point, lower bound, upper bound), all in the input's quantization."""
    input_q = require_quantization(node, input_tensor, "input")
    six = round_half_away_from_zero(float32_divide(6.0, input_q.scale)) + input_q.zero_point
    return input_q.zero_point, input_q.zero_point, min(INT8_MAX, max(INT8_MIN, six))


def float32_relu6(values: Array) -> Array:
    zero, six = np.float32(0.0), np.float32(6.0)
    return np.where(values > six, six, np.where(values < zero, zero, values))


def relu6_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_relu6)
    zero_point, low, high = relu6_bounds(call.node, call.input_tensor(0))
    return [requantize(call.value(0), zero_point, IDENTITY_MULTIPLIER, IDENTITY_SHIFT, zero_point, low, high)]
