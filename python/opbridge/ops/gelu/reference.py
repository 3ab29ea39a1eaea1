# SPDX-License-Identifier: Apache-2.0
"""GELU: reference implementation.

float32: 0.5 x erfc(-x / sqrt(2)), or with `approximate` 0.5 x (1 + tanh(u)), u = sqrt(2 / pi) (x + 0.044715 x^3),
each step a float32 operation in the C kernel's order. 1 + tanh(u) is computed as 2 / (1 + exp(-2u)), the same
value without the cancellation of 1 + tanh(u) near u = -3, where one ulp of tanhf becomes hundreds of ulps of
the result. erfc and exp are computed in float64 and rounded once to float32, so libm's erfcf and expf may
differ by an ulp or so (the golden tests allow for it).
LiteRT's float32 GELU is not this function bit for bit (its reference kernel differs from it by up to
128 ulps in the exact form, and its tanh form is a coarser approximation below about -4), so float32 is
checked against LiteRT, onnxruntime and torch within a tolerance (op_test.py).

int8: LiteRT's lookup table, made at conversion time. For each int8 value v, in float32:
x = input_scale * (v - input_zero_point), y = gelu(x) in LiteRT's form (the tanh form as
0.5 x (1 + tanh(u))), the quotient y * (1 / output_scale) rounded half away from zero, plus
output_zero_point, clamped to [-128, 127]. The kernel reads output[i] = table[input[i] + 128].
TFLite Micro has no GELU kernel; this is LiteRT's reference kernel, bit for bit (op_test.py checks it on
every int8 value of drawn quantizations).
"""

import math

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference
from opbridge.ops.shared.quantized import int8_operands

# float32 constants of the two forms, as the C kernel spells them.
MINUS_SQRT1_2 = np.float32(-math.sqrt(0.5))
SQRT_2_OVER_PI = np.float32(math.sqrt(2.0 / math.pi))
CUBIC_COEFFICIENT = np.float32(0.044715)
HALF, ONE, TWO = np.float32(0.5), np.float32(1.0), np.float32(2.0)
# An int8 table entry is a rounded quotient cast to int32; beyond this the cast would overflow.
LARGEST_QUOTIENT = 2.0**31 - 256


def float32_gelu(values: Array, approximate: bool, table_form: bool = False) -> Array:
    """GELU on float32 values, each step rounded to float32 as the C kernel rounds it. `table_form`: the
    tanh form as LiteRT's lookup table computes it, 1 + tanh(u) (its cancellation is below an int8 step)."""
    x = np.asarray(values, dtype=np.float32)
    with np.errstate(all="ignore"):  # overflow to inf and NaN propagate as in C
        half_x = HALF * x
        if approximate and table_form:
            inner = SQRT_2_OVER_PI * (x + CUBIC_COEFFICIENT * x * x * x)
            gate = ONE + np.tanh(inner.astype(np.float64)).astype(np.float32)
        elif approximate:
            inner = SQRT_2_OVER_PI * (x + CUBIC_COEFFICIENT * x * x * x)
            exponential = np.exp(-2.0 * inner.astype(np.float64)).astype(np.float32)
            gate = TWO / (ONE + exponential)
        else:
            gate = _erfc(x * MINUS_SQRT1_2)
        return (half_x * gate).astype(np.float32)


def _erfc(values: Array) -> Array:
    """erfc in float64, rounded once to float32."""
    flat = np.asarray(values, dtype=np.float64).ravel()
    result = np.fromiter((math.erfc(v) for v in flat), dtype=np.float64, count=flat.size)
    return result.astype(np.float32).reshape(np.shape(values))


def int8_table(node: Node, input_tensor: Tensor, output: Tensor, approximate: bool) -> Array:
    """The 256 int8 outputs of every int8 input, from -128 (entry 0) to 127 (LiteRT's LUTPopulate)."""
    input_q, output_q = int8_operands(node, [("input", input_tensor), ("output", output)])
    if len(input_q.scales) != 1 or len(output_q.scales) != 1:
        raise UnsupportedTensorError(
            f"{node.describe()}: GELU's int8 input and output need one scale each (per-tensor quantization); "
            f"the input has {len(input_q.scales)}, the output {len(output_q.scales)}",
            hint="quantize activations per tensor, as TFLite's converter does",
        )
    input_scale, input_zero_point = input_q.scales[0], input_q.zero_points[0]
    output_scale, output_zero_point = output_q.scales[0], output_q.zero_points[0]
    every_value = np.arange(-128, 128, dtype=np.int32)
    dequantized = np.float32(input_scale) * (every_value - input_zero_point).astype(np.float32)
    inverse_scale = ONE / np.float32(output_scale)
    with np.errstate(over="ignore"):
        quotients = float32_gelu(dequantized, approximate, table_form=True) * inverse_scale
    if not np.all(np.abs(quotients) < LARGEST_QUOTIENT):
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} is too fine for input {input_tensor.describe()}: "
            "a GELU output divided by the output scale leaves the int32 range",
            hint="give the output a scale of at least the input's range / 2^31 (a converter's calibration does)",
        )
    rounded = np.sign(quotients) * np.floor(np.abs(quotients) + np.float32(0.5))  # std::round on float
    quantized = rounded.astype(np.int64) + output_zero_point
    return np.clip(quantized, -128, 127).astype(np.int8)


def gelu_reference(call: ReferenceCall) -> list[Array]:
    approximate = call.attributes.approximate
    input_tensor, output = call.input_tensor(0), call.outputs[0]
    if input_tensor.dtype is DType.FLOAT32:
        return float32_unary_reference(call, lambda x: float32_gelu(x, approximate))
    table = int8_table(call.node, input_tensor, output, approximate)
    values = np.asarray(call.value(0), dtype=np.int8).astype(np.int32) + 128
    return [table[values].reshape(output.shape)]
