# SPDX-License-Identifier: Apache-2.0
"""int8 helpers the operators share: operand checks, activation ranges in the quantized domain,
multipliers, and requantization (TFLite's fixed point; ONNX's float32 scale)."""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ir.attribute_types import Activation
from opbridge.quantization.fixed_point import (
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    round_half_away_from_zero,
)

INT8_MIN = -128


INT8_MAX = 127


def onnx_output_scales(
    input_scale: float, filter_scales: tuple[float, ...], output_scale: float, channels: int
) -> np.ndarray:
    """float32 input_scale * filter_scale / output_scale per output channel, in onnxruntime's order."""
    scales = filter_scales if len(filter_scales) > 1 else filter_scales * channels
    products = np.float32(input_scale) * np.array(scales, np.float32)
    return (products / np.float32(output_scale)).astype(np.float32)


def requantize_float_scale(accumulators: np.ndarray, scales: np.ndarray, zero_point: int) -> np.ndarray:
    """Requantization.ONNX: float32(accumulator) * scale, saturated to int8, halves to even, + zero point.

    `scales` broadcasts over the last axis (one per output channel). The
    saturation happens before rounding, on the float, as in onnxruntime
    (its bounds are whole numbers, so the order does not change the result).
    """
    scaled = accumulators.astype(np.float32) * scales.astype(np.float32)
    saturated = np.clip(scaled, np.float32(INT8_MIN - zero_point), np.float32(INT8_MAX - zero_point))
    return np.rint(saturated).astype(np.int64) + zero_point


def float32(value: float) -> float:
    """Rounds a Python float (a double) to float32, as C float arithmetic does."""
    return float(np.float32(value))


def float32_divide(numerator: float, denominator: float) -> float:
    """numerator / denominator in float32 arithmetic (one rounding, as C float division)."""
    return float(np.float32(numerator) / np.float32(denominator))


def require_quantization(node: Node, tensor: Tensor, role: str) -> Quantization:
    if tensor.quantization is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: {role} {tensor.describe()} has no quantization parameters",
            hint="int8 operators need scales and zero points on every input and output; re-quantize the model",
        )
    return tensor.quantization


def activation_range(activation: Activation, output: Quantization, dtype: DType = DType.INT8) -> tuple[int, int]:
    """The clamping bounds of a fused activation on a quantized output."""
    type_min, type_max = {DType.INT8: (INT8_MIN, INT8_MAX), DType.INT16: (-32768, 32767)}[dtype]

    def quantize(real: float) -> int:
        # TFLite divides in float32, then rounds half away from zero.
        return output.zero_point + round_half_away_from_zero(float32_divide(real, output.scale))

    if activation is Activation.NONE:
        return type_min, type_max
    if activation is Activation.RELU:
        return max(type_min, quantize(0.0)), type_max
    if activation is Activation.RELU6:
        return max(type_min, quantize(0.0)), min(type_max, quantize(6.0))
    return max(type_min, quantize(-1.0)), min(type_max, quantize(1.0))


def per_channel_multipliers(
    input_scale: float, filter_scales: tuple[float, ...], output_scale: float, channels: int
) -> tuple[np.ndarray, np.ndarray]:
    """Multipliers and shifts per output channel (per-tensor filters repeat one).

    TFLite Micro computes input_scale * filter_scale / output_scale in double
    for convolutions (PopulateConvolutionQuantizationParams).
    """
    scales = filter_scales if len(filter_scales) > 1 else filter_scales * channels
    pairs = [quantize_multiplier(float(input_scale) * float(scale) / float(output_scale)) for scale in scales]
    return np.array([m for m, _ in pairs], dtype=np.int64), np.array([s for _, s in pairs], dtype=np.int64)


def require_dtype(node: Node, tensor: Tensor, role: str, allowed: tuple[DType, ...] = (DType.INT8,)) -> None:
    if tensor.dtype not in allowed:
        raise UnsupportedTensorError(
            f"{node.describe()}: {role} {tensor.describe()} is {tensor.dtype.value}; "
            f"this operator supports {', '.join(d.value for d in allowed)}",
            hint="quantize the model to int8 (with int32 biases)",
        )


def int8_operands(node: Node, operands: list[tuple[str, Tensor]]) -> list[Quantization]:
    """Checks that each (role, tensor) is quantized int8; returns their quantizations."""
    for role, tensor in operands:
        require_dtype(node, tensor, role)
    return [require_quantization(node, tensor, role) for role, tensor in operands]


def requantize(
    values: np.ndarray,
    input_zero_point: int,
    multiplier: int,
    shift: int,
    output_zero_point: int,
    low: int = INT8_MIN,
    high: int = INT8_MAX,
) -> np.ndarray:
    """clamp(rescale(q - input_zero_point) + output_zero_point), as int8."""
    scaled = multiply_by_quantized_multiplier(values.astype(np.int64) - input_zero_point, multiplier, shift)
    return np.clip(scaled + output_zero_point, low, high).astype(np.int8)
