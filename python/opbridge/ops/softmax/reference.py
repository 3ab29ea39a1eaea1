"""TFLite Micro's reference SOFTMAX, int8 input and int8 output.

The input differences from the row maximum are scaled to fixed point with 5
integer bits, exponentiated with gemmlowp's fixed-point exp, summed with 12
integer bits, and divided through gemmlowp's fixed-point reciprocal;
differences below `diff_min` give the output minimum.
"""

import math

import numpy as np

from opbridge.ops.common import require_quantization
from opbridge.ops.definition import Array, ReferenceCall
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


def softmax_reference(call: ReferenceCall) -> list[Array]:
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
