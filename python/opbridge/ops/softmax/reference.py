# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference SOFTMAX, int8 input and int8 output, and float32.

int8: the input differences from the row maximum are scaled to fixed point
with 5 integer bits, exponentiated with gemmlowp's fixed-point exp, summed
with 12 integer bits, and divided through gemmlowp's fixed-point reciprocal;
differences below `diff_min` give the output minimum.

float32 (TFLite's float reference): per row, the maximum (from -FLT_MAX),
e_c = exp((x_c - max) * beta) with float32 beta, sum = 0 + e_0 + e_1 + ... in
order, output e_c / sum; each step one float32 rounding. exp is float64
rounded once to float32 (the C kernel's expf may differ by an ulp).
"""

import math

import numpy as np

from opbridge.ir import DType
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import FLOAT32_LOWEST, float32_exp, require_float32
from opbridge.ops.shared.quantized import require_quantization
from opbridge.quantization import gemmlowp
from opbridge.quantization.fixed_point import (
    quantize_multiplier,
    rounding_divide_by_power_of_two,
    saturating_rounding_doubling_high_mul,
)

SCALED_DIFF_INTEGER_BITS = 5
ACCUMULATION_INTEGER_BITS = 12


def softmax_parameters(beta: float, input_scale: float) -> tuple[int, int, int]:
    """(input multiplier, input left shift, diff_min), as TFLite's PreprocessSoftmaxScaling."""
    real_multiplier = min(beta * input_scale * (1 << (31 - SCALED_DIFF_INTEGER_BITS)), float((1 << 31) - 1))
    multiplier, left_shift = quantize_multiplier(real_multiplier)
    max_input_rescaled = (
        ((1 << SCALED_DIFF_INTEGER_BITS) - 1) * float(1 << (31 - SCALED_DIFF_INTEGER_BITS)) / float(1 << left_shift)
    )
    return multiplier, left_shift, -math.floor(max_input_rescaled)


def float32_softmax_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    values = np.asarray(call.value(0), dtype=np.float32)
    rows = values.reshape(-1, values.shape[-1])
    beta = np.float32(call.attributes.beta)
    with np.errstate(all="ignore"):
        maximum = np.full(rows.shape[0], FLOAT32_LOWEST, dtype=np.float32)
        for column in rows.T:
            maximum = np.where(maximum < column, column, maximum)  # std::max(maximum, x)
        exps = np.empty_like(rows)
        total = np.zeros(rows.shape[0], dtype=np.float32)
        for c in range(rows.shape[1]):
            exps[:, c] = float32_exp((rows[:, c] - maximum) * beta)
            total = total + exps[:, c]
        return [(exps / total[:, None]).astype(np.float32).reshape(output.shape)]


def softmax_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_softmax_reference(call)
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    output = call.outputs[0]
    multiplier, left_shift, diff_min = softmax_parameters(call.attributes.beta, input_q.scale)

    values = call.value(0).astype(np.int64)
    rows = values.reshape(-1, values.shape[-1])
    differences = rows - rows.max(axis=1, keepdims=True)
    in_range = differences >= diff_min
    scaled = saturating_rounding_doubling_high_mul(differences * (1 << left_shift), multiplier)
    exps = gemmlowp.exp_on_negative_values(scaled, SCALED_DIFF_INTEGER_BITS)
    rescaled = gemmlowp.rescale(exps, 0, ACCUMULATION_INTEGER_BITS)
    sum_of_exps = np.where(in_range, rescaled, 0).sum(axis=1, keepdims=True)
    reciprocal, bits_over_unit = gemmlowp.reciprocal(sum_of_exps, ACCUMULATION_INTEGER_BITS)
    unsaturated = rounding_divide_by_power_of_two(
        saturating_rounding_doubling_high_mul(reciprocal, exps), bits_over_unit + 31 - 8
    )
    result = np.where(in_range, np.clip(unsaturated - 128, -128, 127), -128)
    return [result.astype(np.int8).reshape(output.shape)]
