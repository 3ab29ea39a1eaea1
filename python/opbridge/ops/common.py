"""Helpers shared by the int8 operators: activation ranges, padding, multipliers."""

import dataclasses
import enum

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.quantization.fixed_point import quantize_multiplier, round_half_away_from_zero

INT8_MIN = -128
INT8_MAX = 127


class Activation(enum.Enum):
    """Fused activations (TFLite's ActivationFunctionType)."""

    NONE = 0
    RELU = 1
    RELU_N1_TO_1 = 2
    RELU6 = 3


def litert_activation(code: int) -> Activation:
    """A LiteRT fused-activation code; TANH and SIGN_BIT fused into an op are not supported."""
    try:
        return Activation(code)
    except ValueError:
        raise UnsupportedOperatorError(
            f"fused activation {code} is not supported (supported: NONE, RELU, RELU_N1_TO_1, RELU6)",
            hint="export the model with the activation as a separate operator",
        ) from None


class Padding(enum.Enum):
    SAME = 0
    VALID = 1


class Requantization(enum.Enum):
    """How an int8 kernel scales its int32 accumulator to the int8 output.

    TFLITE: TFLite's fixed-point multiplier and shift (a doubling high
    multiply, then a rounding shift; halves away from zero), bit-exact with
    TFLite Micro. ONNX: one float32 scale per output channel,
    input_scale * filter_scale / output_scale in float32, a float32
    multiply, saturation, then rounding halves to even, as ONNX's QLinearConv
    and QLinearMatMul define it and onnxruntime computes it. Models imported
    from LiteRT use TFLITE, models imported from ONNX use ONNX.
    """

    TFLITE = "tflite"
    ONNX = "onnx"


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


# std::numeric_limits<float>::lowest() and max(): the float32 clamp without a fused activation.
FLOAT32_LOWEST = float(np.finfo(np.float32).min)
FLOAT32_MAX = float(np.finfo(np.float32).max)


def float_activation_range(activation: Activation) -> tuple[float, float]:
    """TFLite's CalculateActivationRange for float32: the clamp of a fused activation.

    Without one the bounds are -FLT_MAX and FLT_MAX (not infinities), so an
    infinite float32 ADD, SUB, MUL, DIV or pooling result becomes +-FLT_MAX,
    as in TFLite Micro.
    """
    return {
        Activation.NONE: (FLOAT32_LOWEST, FLOAT32_MAX),
        Activation.RELU: (0.0, FLOAT32_MAX),
        Activation.RELU6: (0.0, 6.0),
        Activation.RELU_N1_TO_1: (-1.0, 1.0),
    }[activation]


@dataclasses.dataclass(frozen=True)
class Window:
    """Output size and leading padding of one spatial dimension."""

    output_size: int
    padding_before: int


def window(padding: Padding, input_size: int, filter_size: int, stride: int, dilation: int = 1) -> Window:
    """TFLite's ComputePaddingHeightWidth for one dimension."""
    effective_filter = (filter_size - 1) * dilation + 1
    if padding is Padding.SAME:
        output_size = (input_size + stride - 1) // stride
    else:
        output_size = (input_size - effective_filter + stride) // stride
    total_padding = max(0, (output_size - 1) * stride + effective_filter - input_size)
    return Window(output_size=output_size, padding_before=total_padding // 2)


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
