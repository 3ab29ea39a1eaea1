# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference FULLY_CONNECTED: int8 (per-tensor or per-channel filter), int16 activations with int8
weights and an int64 or int32 bias (16x8), and float32."""

import numpy as np

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import DType, Node, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import clamp_float32, float_activation_range, require_float32
from opbridge.ops.shared.quantized import (
    activation_range,
    float32,
    onnx_output_scales,
    requantize_float_scale,
    require_quantization,
)
from opbridge.quantization.fixed_point import (
    multiply_by_quantized_multiplier,
    multiply_by_quantized_multiplier_int64,
    quantize_multiplier,
    wrap_int32,
)


def fully_connected_multipliers(
    input_q: Quantization, filter_q: Quantization, output_q: Quantization
) -> tuple[np.ndarray, np.ndarray]:
    """Multipliers and shifts: one (per-tensor filter) or one per output unit."""
    if filter_q.per_channel:
        # Per-channel: input * filter[c] / output, in double.
        pairs = [
            quantize_multiplier(float(input_q.scale) * float(scale) / float(output_q.scale))
            for scale in filter_q.scales
        ]
    else:
        # Per-tensor: TFLite Micro multiplies the two scales in float32 first.
        pairs = [quantize_multiplier(float32(input_q.scale * filter_q.scale) / float(output_q.scale))]
    return np.array([m for m, _ in pairs], dtype=np.int64), np.array([s for _, s in pairs], dtype=np.int64)


@np.errstate(all="ignore")  # overflow to inf and inf - inf = NaN, silently, as in C
def fully_connected_float32(call: ReferenceCall) -> list[Array]:
    """TFLite Micro's float FullyConnected, in the C kernel's order (cc/kernels/opbridge_fully_connected_f32.c).

    Each output is the sum over d = 0, 1, ... of input[d] * filter[unit][d],
    then + bias, then the fused activation, each step rounded to float32
    (a loop over the depth, vectorized across rows and units; not a matmul,
    whose summation order differs).
    """
    bias_tensor = call.optional_input_tensor(2)
    operands = [("input", call.input_tensor(0)), ("filter", call.input_tensor(1)), ("output", call.outputs[0])]
    require_float32(call.node, operands + ([("bias", bias_tensor)] if bias_tensor is not None else []))
    weights = call.value(1)
    depth = weights.shape[1]
    rows = call.value(0).reshape(-1, depth)
    totals = np.zeros((rows.shape[0], weights.shape[0]), np.float32)
    for d in range(depth):
        totals = totals + rows[:, d : d + 1] * weights[:, d]
    if bias_tensor is not None:
        totals = totals + call.value(2)
    clamped = clamp_float32(totals, *float_activation_range(call.attributes.activation))
    return [clamped.reshape(call.outputs[0].shape)]


def require_tflite_requantization(node: Node) -> None:
    """int16 nodes requantize as TFLite does; ONNX's float-scale requantization is int8's only."""
    if node.attributes.requantization is not Requantization.TFLITE:
        raise UnsupportedOperatorError(
            f"{node.describe()}: int16 FULLY_CONNECTED with {node.attributes.requantization.value} requantization",
            hint="int16 activations (TFLite's 16x8 quantization) requantize with TFLite's fixed point",
        )


def fully_connected_int16(call: ReferenceCall) -> list[Array]:
    """TFLite Micro's 16x8 FullyConnected: int16 input and output, int8 weights.

    With an int64 bias (or none) the accumulator is int64 and is rescaled by the int64
    MultiplyByQuantizedMultiplier (16-bit reduced multiplier, one rounding); with an int32 bias
    it is int32 (wrapping) and rescaled by the int32 one (gemmlowp's double rounding). A
    per-channel filter reads no filter zero point, a per-tensor one subtracts its own.
    """
    require_tflite_requantization(call.node)
    filter_tensor = call.input_tensor(1)
    bias_tensor = call.optional_input_tensor(2)
    output = call.outputs[0]
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    filter_q = require_quantization(call.node, filter_tensor, "filter")
    output_q = require_quantization(call.node, output, "output")
    depth = filter_tensor.shape[1]
    values = call.value(0).astype(np.int64).reshape(-1, depth) - input_q.zero_point
    filter_offset = 0 if filter_q.per_channel else filter_q.zero_point
    weights = call.value(1).astype(np.int64) - filter_offset
    accumulators = values @ weights.T
    multipliers, shifts = fully_connected_multipliers(input_q, filter_q, output_q)
    if bias_tensor is not None and bias_tensor.dtype is DType.INT32:
        accumulators = wrap_int32(wrap_int32(accumulators) + call.value(2).astype(np.int64))
        scaled = multiply_by_quantized_multiplier(accumulators, multipliers, shifts)
    else:
        if bias_tensor is not None:
            accumulators = accumulators + call.value(2).astype(np.int64)
        scaled = multiply_by_quantized_multiplier_int64(accumulators, multipliers, shifts)
    low, high = activation_range(call.attributes.activation, output_q, DType.INT16)
    return [np.clip(scaled + output_q.zero_point, low, high).astype(np.int16).reshape(output.shape)]


def fully_connected_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return fully_connected_float32(call)
    if call.input_tensor(0).dtype is DType.INT16:
        return fully_connected_int16(call)
    input_tensor = call.input_tensor(0)
    filter_tensor = call.input_tensor(1)
    bias_tensor = call.optional_input_tensor(2)
    output = call.outputs[0]
    input_q = require_quantization(call.node, input_tensor, "input")
    filter_q = require_quantization(call.node, filter_tensor, "filter")
    output_q = require_quantization(call.node, output, "output")

    depth = filter_tensor.shape[1]
    values = call.value(0).astype(np.int64).reshape(-1, depth) - input_q.zero_point
    weights = call.value(1).astype(np.int64) - np.array(filter_q.zero_points, dtype=np.int64).reshape(-1, 1)
    accumulators = values @ weights.T
    if bias_tensor is not None:
        accumulators = accumulators + call.value(2).astype(np.int64)

    if call.attributes.requantization is Requantization.ONNX:
        scales = onnx_output_scales(input_q.scale, filter_q.scales, output_q.scale, filter_tensor.shape[0])
        scaled = requantize_float_scale(accumulators, scales, output_q.zero_point)
    else:
        multipliers, shifts = fully_connected_multipliers(input_q, filter_q, output_q)
        scaled = multiply_by_quantized_multiplier(accumulators, multipliers, shifts) + output_q.zero_point
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(scaled, low, high).astype(np.int8).reshape(output.shape)]
