# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU: reference implementation, TFLite Micro's.

int8: the input minus its zero point is rescaled to the output by one of two
multipliers, input_scale / output_scale at or above zero and
input_scale * alpha / output_scale below (both computed in double from the
float32 scales and alpha, as TFLite Micro's prepare does), plus the output
zero point, clamped to int8. float32: x > 0 ? x : x * alpha, one float32
multiply (NaN and -0.0 take the alpha branch).
"""

import dataclasses

import numpy as np

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference
from opbridge.ops.shared.quantized import INT8_MAX, INT8_MIN, float32, require_quantization
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier


@dataclasses.dataclass(frozen=True)
class LeakyReluParameters:
    input_zero_point: int
    output_zero_point: int
    identity_multiplier: int
    identity_shift: int
    alpha_multiplier: int
    alpha_shift: int


def leaky_relu_parameters(node: Node, input_tensor: Tensor, output: Tensor) -> LeakyReluParameters:
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    input_scale, output_scale = float32(input_q.scale), float32(output_q.scale)
    alpha = float32(node.attributes.alpha)
    if not alpha >= 0.0:
        # TFLite's fixed-point multipliers are non-negative here; a negative slope would need a sign flip.
        raise UnsupportedOperatorError(
            f"{node.describe()}: int8 LEAKY_RELU with alpha {alpha} (below 0) is not supported",
            hint="use alpha >= 0, or run this activation in float32",
        )
    identity_multiplier, identity_shift = quantize_multiplier(input_scale / output_scale)
    alpha_multiplier, alpha_shift = quantize_multiplier(input_scale * alpha / output_scale)
    return LeakyReluParameters(
        input_q.zero_point, output_q.zero_point, identity_multiplier, identity_shift, alpha_multiplier, alpha_shift
    )


def leaky_relu_int8(values: Array, p: LeakyReluParameters) -> Array:
    centred = values.astype(np.int64) - p.input_zero_point
    identity = multiply_by_quantized_multiplier(centred, p.identity_multiplier, p.identity_shift)
    sloped = multiply_by_quantized_multiplier(centred, p.alpha_multiplier, p.alpha_shift)
    scaled = np.where(centred >= 0, identity, sloped) + p.output_zero_point
    return np.clip(scaled, INT8_MIN, INT8_MAX).astype(np.int8)


def leaky_relu_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        alpha = np.float32(call.attributes.alpha)
        return float32_unary_reference(call, lambda x: np.where(x > np.float32(0.0), x, x * alpha))
    p = leaky_relu_parameters(call.node, call.input_tensor(0), call.outputs[0])
    return [leaky_relu_int8(call.value(0), p).reshape(call.outputs[0].shape)]
