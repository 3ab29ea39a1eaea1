# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference SOFTMAX: int8 input to int8 or int16 output, int16 input and int16 output (16x8), and
float32.

int8: the input differences from the row maximum are scaled to fixed point
with 5 integer bits, exponentiated with gemmlowp's fixed-point exp, summed
with 12 integer bits, and divided through gemmlowp's fixed-point reciprocal
down to the output type's bits (8 or 16) and offset by its minimum, i.e.
int8 output scale 1/256, zero point -128, int16 output scale 1/65536, zero
point -32768 (TFLite Micro's Prepare refuses other output quantizations);
differences below `diff_min` give the output minimum.

int16 (SoftmaxInt16): the differences from the row maximum are rescaled so that [-65535, 0] covers
[-10, 0] (input_scale * beta / (10 / 65535), TFLite's QuantizeMultiplier), recentred to int16 and
exponentiated through a 513-entry interpolated table; the sum's reciprocal comes from a second table of
1 / (1 + x) after normalising the sum by its leading zeros; output scale 1/32768, zero point 0.

float32 (TFLite's float reference): per row, the maximum (from -FLT_MAX),
e_c = exp((x_c - max) * beta) with float32 beta, sum = 0 + e_0 + e_1 + ... in
order, output e_c / sum; each step one float32 rounding. exp is float64
rounded once to float32 (the C kernel's expf may differ by an ulp).
"""

import functools
import math

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import FLOAT32_LOWEST, float32_exp, require_float32
from opbridge.ops.shared.int16_lut import (
    float32_expf,
    float32_one_over_one_plus,
    lut_lookup_int16,
    lut_populate_int16,
)
from opbridge.ops.shared.quantized import require_quantization
from opbridge.quantization import gemmlowp
from opbridge.quantization.fixed_point import (
    multiply_by_quantized_multiplier,
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


# TFLite Micro's int16 tables (InitializeLutForInt16): exp over [-10, 0] and 1 / (1 + x) over [0, 1], both
# written in int16 steps of 2 / 65535; the input range is the int16 range with zero points 32767 and -32768.
INT16_RANGE = np.float32(65535)


@functools.cache
def int16_exp_lut() -> np.ndarray:
    return lut_populate_int16(np.float32(10.0) / INT16_RANGE, 32767, np.float32(2.0) / INT16_RANGE, 0, float32_expf)


@functools.cache
def int16_one_over_one_plus_x_lut() -> np.ndarray:
    return lut_populate_int16(
        np.float32(1.0) / INT16_RANGE, -32768, np.float32(2.0) / INT16_RANGE, 0, float32_one_over_one_plus
    )


def int16_softmax_parameters(beta: float, input_scale: float) -> tuple[int, int]:
    """(input multiplier, input shift): input_scale * beta / (10 / 65535) in double, TFLite's QuantizeMultiplier."""
    return quantize_multiplier(float(np.float32(input_scale)) * float(np.float32(beta)) / (10.0 / 65535.0))


def int16_quantizations(node: Node, input_tensor: Tensor, output: Tensor) -> Quantization:
    """The input's quantization, after TFLite Micro's checks: zero points 0, output scale 1/32768 (within 0.1%)."""
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    if output.dtype is not DType.INT16:
        raise UnsupportedTensorError(
            f"{node.describe()}: int16 SOFTMAX to {output.describe()}", hint="an int16 softmax writes int16"
        )
    if input_q.zero_point != 0 or output_q.zero_point != 0 or abs(output_q.scale - 1.0 / 32768) > 0.001 / 32768:
        raise UnsupportedTensorError(
            f"{node.describe()}: int16 SOFTMAX needs input zero point 0 and output scale 1/32768 with zero point 0, "
            f"got input {input_q} and output {output_q}",
            hint="re-quantize the model as TFLite's converter does for 16x8 (TFLite Micro refuses other parameters)",
        )
    return input_q


def int16_softmax_reference(call: ReferenceCall) -> list[Array]:
    """TFLite's SoftmaxInt16 (see the module's docstring), row by row over the last axis."""
    output = call.outputs[0]
    input_q = int16_quantizations(call.node, call.input_tensor(0), output)
    multiplier, shift = int16_softmax_parameters(call.attributes.beta, input_q.scale)
    values = call.value(0).astype(np.int64)
    rows = values.reshape(-1, values.shape[-1])
    differences = rows - rows.max(axis=1, keepdims=True)
    scaled = multiply_by_quantized_multiplier(differences, multiplier, shift)
    exps = lut_lookup_int16(np.clip(scaled + 32767, -32768, 32767), int16_exp_lut())
    sums = exps.sum(axis=1, keepdims=True)  # int32, at most depth * 32767
    headroom_plus_one = np.array([[32 - int(total).bit_length()] for total in sums.ravel()], dtype=np.int64)
    shifted_sum = ((sums << (headroom_plus_one - 1)) + (1 << 13)) >> 14
    centred = np.clip(shifted_sum - ((1 << 15) + (1 << 16)), -32768, 32767)
    reciprocal = lut_lookup_int16(centred, int16_one_over_one_plus_x_lut())
    right_shift = 31 - headroom_plus_one
    result = (exps * reciprocal + (np.int64(1) << (right_shift - 1))) >> right_shift
    return [np.clip(result, 0, 32767).astype(np.int16).reshape(output.shape)]


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


# The int8 input path's outputs: dtype -> (bits, zero point = the type's minimum, scale 2^-bits).
INT8_INPUT_OUTPUTS = {DType.INT8: (8, -128), DType.INT16: (16, -32768)}


def int8_input_output_bits(node: Node, output: Tensor) -> int:
    """The output's bits (8 or 16) after TFLite Micro's checks of an int8 softmax's output: int8 at scale 1/256
    (exactly) with zero point -128, or int16 at scale 1/65536 (within 0.1%) with zero point -32768."""
    if output.dtype not in INT8_INPUT_OUTPUTS:
        raise UnsupportedTensorError(
            f"{node.describe()}: int8 SOFTMAX to {output.describe()}", hint="an int8 softmax writes int8 or int16"
        )
    output_q = require_quantization(node, output, "output")
    bits, zero_point = INT8_INPUT_OUTPUTS[output.dtype]
    if bits == 8:
        scale_ok = np.float32(output_q.scale) == np.float32(1.0 / 256.0)
    else:
        scale_ok = abs(np.float32(output_q.scale) - np.float32(1.0 / 65536)) <= np.float32(0.001 / 65536)
    if output_q.zero_point != zero_point or not scale_ok:
        raise UnsupportedTensorError(
            f"{node.describe()}: int8 SOFTMAX to {output.dtype.value} needs output scale 1/{1 << bits} and zero "
            f"point {zero_point}, got {output_q}",
            hint="re-quantize the model; TFLite Micro refuses other output parameters",
        )
    return bits


def softmax_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_softmax_reference(call)
    if call.input_tensor(0).dtype is DType.INT16:
        return int16_softmax_reference(call)
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    output = call.outputs[0]
    bits = int8_input_output_bits(call.node, output)
    output_min, output_max = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
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
        saturating_rounding_doubling_high_mul(reciprocal, exps), bits_over_unit + 31 - bits
    )
    result = np.where(in_range, np.clip(unsaturated + output_min, output_min, output_max), output_min)
    return [result.astype(output.dtype.numpy).reshape(output.shape)]
