# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC: reference implementation."""

import dataclasses
import math

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_exp, float32_unary_reference
from opbridge.ops.shared.quantized import require_quantization
from opbridge.quantization import gemmlowp
from opbridge.quantization.fixed_point import (
    multiply_by_quantized_multiplier,
    round_half_away_from_zero,
    rounding_divide_by_power_of_two,
)

INPUT_INTEGER_BITS = 4


@dataclasses.dataclass(frozen=True)
class ActivationParameters:
    zero_point: int
    multiplier: int
    left_shift: int
    range_radius: int


def activation_parameters(node: Node, input_tensor: Tensor) -> ActivationParameters:
    """TFLite Micro's LOGISTIC/TANH preparation: the input rescaled to 4 integer bits."""
    input_q = require_quantization(node, input_tensor, "input")
    mantissa, exponent = math.frexp(input_q.scale * (1 << (31 - INPUT_INTEGER_BITS)))
    if exponent < 0:
        raise UnsupportedTensorError(
            f"{node.describe()}: input scale {input_q.scale} is too small", hint="re-quantize the model"
        )
    radius = math.floor(((1 << INPUT_INTEGER_BITS) - 1) * float(1 << (31 - INPUT_INTEGER_BITS)) / float(1 << exponent))
    multiplier = round_half_away_from_zero(mantissa * (1 << 31))
    return ActivationParameters(input_q.zero_point, multiplier, exponent, radius)


def saturating_activation(call: ReferenceCall, function: str) -> np.ndarray:
    """The shared LOGISTIC/TANH element loop, before the output's final shift."""
    p = activation_parameters(call.node, call.input_tensor(0))
    centred = call.value(0).astype(np.int64) - p.zero_point
    scaled = multiply_by_quantized_multiplier(
        np.clip(centred, -p.range_radius, p.range_radius), p.multiplier, p.left_shift
    )
    if function == "tanh":
        value = np.clip(rounding_divide_by_power_of_two(gemmlowp.tanh(scaled), 24), -128, 127)
    else:
        value = np.clip(rounding_divide_by_power_of_two(gemmlowp.logistic(scaled), 23) - 128, -128, 127)
    value = np.where(centred <= -p.range_radius, -128, np.where(centred >= p.range_radius, 127, value))
    return value.astype(np.int8)


# TFLite's reference Logistic switches to 1 and to exp(x) beyond these.
LOGISTIC_CUTOFF_UPPER = np.float32(16.619047164916992188)


LOGISTIC_CUTOFF_LOWER = np.float32(-9.0)


def float32_logistic(values: Array) -> Array:
    one = np.float32(1.0)
    middle = one / (one + float32_exp(-values))
    return np.where(
        values > LOGISTIC_CUTOFF_UPPER, one, np.where(values < LOGISTIC_CUTOFF_LOWER, float32_exp(values), middle)
    )


def logistic_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_logistic)
    return [saturating_activation(call, "logistic")]
