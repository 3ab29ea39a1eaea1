# SPDX-License-Identifier: Apache-2.0
"""RELU: reference implementation."""

import numpy as np

from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference
from opbridge.ops.shared.quantized import INT8_MAX, INT8_MIN, float32_divide, requantize, require_quantization
from opbridge.quantization.fixed_point import quantize_multiplier


def relu_parameters(node: Node, input_tensor: Tensor, output: Tensor) -> tuple[int, int, int, int, int]:
    """(input zero point, multiplier, shift, output zero point, lower clamp)."""
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    # TFLite Micro divides the scales in float32.
    multiplier, shift = quantize_multiplier(float32_divide(input_q.scale, output_q.scale))
    return input_q.zero_point, multiplier, shift, output_q.zero_point, max(INT8_MIN, output_q.zero_point)


def float32_relu(values: Array) -> Array:
    return np.where(values < np.float32(0.0), np.float32(0.0), values)


def relu_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_relu)
    zero_point, multiplier, shift, output_zero_point, low = relu_parameters(
        call.node, call.input_tensor(0), call.outputs[0]
    )
    return [requantize(call.value(0), zero_point, multiplier, shift, output_zero_point, low, INT8_MAX)]
