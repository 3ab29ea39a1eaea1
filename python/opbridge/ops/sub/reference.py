# SPDX-License-Identifier: Apache-2.0
"""SUB: reference implementation."""

import numpy as np

from opbridge.ir import DType, Quantization
from opbridge.ops.add.reference import LEFT_SHIFT, AddParameters, add_or_sub_reference
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference
from opbridge.ops.shared.quantized import float32, float32_divide
from opbridge.ops.shared.wide_dtypes import is_wide, wide_binary_reference
from opbridge.quantization.fixed_point import quantize_multiplier


def sub_parameters(first_q: Quantization, second_q: Quantization, output_q: Quantization) -> AddParameters:
    """As ADD's, but TFLite Micro computes SUB's ratios in float32, then widens them."""
    twice_max = float32(2.0 * float32(max(first_q.scale, second_q.scale)))
    first = quantize_multiplier(float32_divide(first_q.scale, twice_max))
    second = quantize_multiplier(float32_divide(second_q.scale, twice_max))
    output = quantize_multiplier(float32_divide(twice_max, float32((1 << LEFT_SHIFT) * output_q.scale)))
    return AddParameters(*first, *second, *output)


def sub_reference(call: ReferenceCall) -> list[Array]:
    if is_wide(call.outputs[0]):
        return wide_binary_reference(call, np.subtract)
    if call.outputs[0].dtype is DType.FLOAT32:
        return float32_binary_reference(call, np.subtract, call.attributes.activation)
    return add_or_sub_reference(call, sub_parameters, sign=-1)
