# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH: reference implementation, TFLite Micro's (reference_ops::HardSwish).

float32: in * min(6, max(0, in + 3)) / 6, three float32 operations in that
order (the product first, then the division by 6, not a multiplication by
1/6). NaN stays NaN, -inf gives NaN (-inf * 0), and x * 6 overflows to inf
for x > FLT_MAX / 6 before the division brings it back.

int8: TFLite Micro's 16-bit fixed point. Prepare computes, from the float32
scales, hires_input_scale = input_scale / 128 and two multipliers, each
divided in float32 then quantized in double (QuantizeMultiplier) and rounded
to 16 bits (DownScaleInt32ToInt16Multiplier):
  output:  hires_input_scale / output_scale (its exponent must be <= 0);
  reluish: hires_input_scale / (3 / 32768).
Each element: x = (q - input_zero_point) * 128 (the "hires" input); the
output-scale value SRDHM16(x, output multiplier); the "reluish" value x on
the scale where 3.0 is 32768 (a saturating left shift by exponent - 1, the
SRDHM16, a saturating left shift by 1, or a rounding right shift), mapped to
[0, 1] as (r + 32768) >> 1; their product by SaturatingDoublingHighMul
(truncating, not rounding), a rounding right shift by -output_exponent, plus
the output zero point, clamped to int8. The shifts are gemmlowp's on int16:
for 16 and more, RoundingDivideByPOT gives 1 for x >= 0 and -1 below (its
mask is cut to 16 bits), and the reference keeps that.
"""

import dataclasses

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference
from opbridge.ops.shared.quantized import INT8_MAX, INT8_MIN, require_quantization
from opbridge.quantization.fixed_point import quantize_multiplier

INT16_MIN, INT16_MAX = -(1 << 15), (1 << 15) - 1
# The input, centred, is shifted left by 7 bits onto the "hires" scale.
HIRES_SHIFT = 7
# The reluish scale: 3.0 is 32768 (float32 3 / 32768, exact).
RELUISH_SCALE = np.float32(3.0) / np.float32(32768.0)
# A left shift by 16 saturates every non-zero int16; larger amounts give the same result.
MAX_USEFUL_LEFT_SHIFT = 16


@dataclasses.dataclass(frozen=True)
class HardSwishParameters:
    input_zero_point: int
    output_zero_point: int
    # Q0.15 multipliers in [0, 32767] with power-of-two exponents (TFLite's HardSwishParams).
    output_multiplier: int
    output_exponent: int
    reluish_multiplier: int
    reluish_exponent: int


def downscale_to_int16(multiplier: int) -> int:
    """TFLite's DownScaleInt32ToInt16Multiplier: the Q0.31 multiplier rounded to Q0.15, saturating."""
    rounding = 1 << 15
    if multiplier >= (1 << 31) - 1 - rounding:
        return INT16_MAX
    return (multiplier + rounding) >> 16


def int16_multiplier(node: Node, real: np.float32, what: str) -> tuple[int, int]:
    """A float32 multiplier as TFLite Micro's Prepare quantizes it: (Q0.15 multiplier, exponent)."""
    if not np.isfinite(real):
        raise UnsupportedTensorError(
            f"{node.describe()}: the {what} multiplier {real} is not finite", hint="re-quantize the model"
        )
    multiplier, exponent = quantize_multiplier(float(real))
    return downscale_to_int16(multiplier), exponent


def hard_swish_parameters(node: Node, input_tensor: Tensor, output: Tensor) -> HardSwishParameters:
    """TFLite Micro's HardSwishPrepare, from the float32 scales."""
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    input_scale, output_scale = np.float32(input_q.scale), np.float32(output_q.scale)
    if not (input_scale > 0 and output_scale > 0):
        raise UnsupportedTensorError(
            f"{node.describe()}: scales {input_q.scale} (input) and {output_q.scale} (output) must be positive",
            hint="re-quantize the model",
        )
    with np.errstate(all="ignore"):
        hires_input_scale = np.float32(1.0 / 128.0) * input_scale
        output_real = hires_input_scale / output_scale
        reluish_real = hires_input_scale / RELUISH_SCALE
    output_multiplier, output_exponent = int16_multiplier(node, output_real, "output")
    if output_exponent > 0:
        # TFLite Micro's Prepare fails (TF_LITE_ENSURE(output_multiplier_exponent <= 0)).
        raise UnsupportedTensorError(
            f"{node.describe()}: int8 HARD_SWISH needs input_scale / 128 / output_scale below 1, got "
            f"{input_q.scale} / 128 / {output_q.scale} = {float(output_real)}",
            hint="TFLite Micro refuses it too; re-quantize the model with a larger output scale",
        )
    reluish_multiplier, reluish_exponent = int16_multiplier(node, reluish_real, "reluish")
    return HardSwishParameters(
        input_q.zero_point,
        output_q.zero_point,
        output_multiplier,
        output_exponent,
        reluish_multiplier,
        reluish_exponent,
    )


# -- gemmlowp's and TFLite's int16 fixed point, on int64 arrays holding int16 values ------------------


def wrap_int16(x: Array) -> Array:
    """The conversion of an int to int16_t: two's-complement wrap."""
    return ((np.asarray(x, dtype=np.int64) + (1 << 15)) & 0xFFFF) - (1 << 15)


def truncating_divide(x: Array, exponent: int) -> Array:
    """C's integer division by 2^exponent: toward zero."""
    return np.where(x >= 0, x >> exponent, -((-x) >> exponent))


def saturating_rounding_doubling_high_mul_int16(a: Array, b: int) -> Array:
    """gemmlowp's int16 SaturatingRoundingDoublingHighMul: (a * b + nudge) / 2^15 toward zero, where the nudge
    is 2^14 for a product >= 0 and 1 - 2^14 below; -32768 * -32768 gives 32767."""
    product = np.asarray(a, dtype=np.int64) * b
    nudge = np.where(product >= 0, 1 << 14, 1 - (1 << 14))
    high = wrap_int16(truncating_divide(product + nudge, 15))
    return np.where((a == INT16_MIN) & (b == INT16_MIN), INT16_MAX, high)


def saturating_doubling_high_mul_int16(a: Array, b: Array) -> Array:
    """TFLite's SaturatingDoublingHighMul (SQDMULH): a * b / 2^15 toward zero, no rounding nudge."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    high = wrap_int16(truncating_divide(a * b, 15))
    return np.where((a == INT16_MIN) & (b == INT16_MIN), INT16_MAX, high)


def saturating_left_shift_int16(x: Array, amount: int) -> Array:
    """TFLite's int16 SaturatingLeftShift: x * 2^amount clamped to int16."""
    return np.clip(np.asarray(x, dtype=np.int64) << min(amount, MAX_USEFUL_LEFT_SHIFT), INT16_MIN, INT16_MAX)


def rounding_divide_by_power_of_two_int16(x: Array, exponent: int) -> Array:
    """gemmlowp's RoundingDivideByPOT on int16_t, exponent in [0, 31]: half away from zero for exponents up to
    15. Its mask, (1 << exponent) - 1, is an int16_t: -1 from 16 on, so that there every x >= 0 gives 1 and
    every x < 0 gives -1."""
    x = np.asarray(x, dtype=np.int64)
    mask = int(wrap_int16(np.int64((1 << exponent) - 1)))
    remainder = x & mask
    threshold = wrap_int16((mask >> 1) + (x < 0))
    return wrap_int16((x >> exponent) + (remainder > threshold))


def hard_swish_int8(values: Array, p: HardSwishParameters) -> Array:
    """TFLite Micro's quantized HardSwish on int8 values, every intermediate an int16 as there."""
    centred = np.asarray(values, dtype=np.int64) - p.input_zero_point  # in [-255, 255]
    hires = centred << HIRES_SHIFT  # in [-32640, 32640]
    on_output_scale = saturating_rounding_doubling_high_mul_int16(hires, p.output_multiplier)
    reluish = hires
    if p.reluish_exponent > 0:
        reluish = saturating_left_shift_int16(reluish, p.reluish_exponent - 1)
    reluish = saturating_rounding_doubling_high_mul_int16(reluish, p.reluish_multiplier)
    if p.reluish_exponent > 0:
        reluish = saturating_left_shift_int16(reluish, 1)
    if p.reluish_exponent < 0:
        reluish = rounding_divide_by_power_of_two_int16(reluish, -p.reluish_exponent)
    gate = (reluish + (1 << 15)) >> 1  # [-1, 1] on Q0.15 to [0, 1]: in [0, 32767]
    product = saturating_doubling_high_mul_int16(gate, on_output_scale)
    scaled = rounding_divide_by_power_of_two_int16(product, -p.output_exponent)
    shifted = wrap_int16(scaled + p.output_zero_point)
    return np.clip(shifted, INT8_MIN, INT8_MAX).astype(np.int8)


def float32_hard_swish(values: Array) -> Array:
    """in * min(6, max(0, in + 3)) / 6 in float32, std::min and std::max's comparisons (NaN gives 0 there)."""
    x = np.asarray(values, dtype=np.float32)
    zero, three, six = np.float32(0.0), np.float32(3.0), np.float32(6.0)
    with np.errstate(all="ignore"):
        shifted = x + three
        raised = np.where(zero < shifted, shifted, zero)  # std::max(0, s): (0 < s) ? s : 0
        capped = np.where(raised < six, raised, six)  # std::min(6, r): (r < 6) ? r : 6
        return ((x * capped) / six).astype(np.float32)


def hard_swish_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_hard_swish)
    p = hard_swish_parameters(call.node, call.input_tensor(0), call.outputs[0])
    return [hard_swish_int8(call.value(0), p).reshape(call.outputs[0].shape)]
