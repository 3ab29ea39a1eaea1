# SPDX-License-Identifier: Apache-2.0
"""What the converters of quantized ONNX ops share: int8 scales and zero points read from constant
inputs, per tensor or per output channel, and the QLinear operands (uint8 activations are refused with a hint)."""

from collections.abc import Callable

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import Int8Operands
from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Activation, Requantization

ONNX_DOMAINS = ("", "ai.onnx")


MICROSOFT_DOMAIN = "com.microsoft"


# Relative difference allowed between a QDQ bias's scale and input_scale * weight_scale.
BIAS_SCALE_RTOL = 1e-6


# Ops that only move int8 values; QDQ around them with equal parameters is dropped.
MOVES_VALUES = (
    "MaxPool",
    "Flatten",
    "Reshape",
    "Transpose",
    "Slice",
    "Squeeze",
    "Unsqueeze",
    "Tile",
    "Expand",
    "Gather",
    "DepthToSpace",
)


UINT8_HINT = "opbridge computes int8 activations; quantize with activation_type=QInt8 and weight_type=QInt8"


def optional_zero_point(conversion: OnnxConversion, node: OnnxNode, position: int, role: str) -> np.ndarray | None:
    """The zero point input at `position` (None if omitted), which must be int8 (or int32 for a bias)."""
    if len(node.inputs) <= position or not node.inputs[position]:
        return None
    index = conversion.value(node.inputs[position], node)
    dtype = conversion.tensor(index).dtype
    if dtype not in (DType.INT8, DType.INT32):
        raise node.unsupported(f"{role} zero point is {dtype.value}", hint=UINT8_HINT)
    return conversion.constant_value(node.inputs[position], node, f"the {role} zero point").astype(np.int64)


def per_tensor(conversion: OnnxConversion, node: OnnxNode, scale: int, zero_point: int, role: str) -> Quantization:
    """One scale and zero point, from the inputs at positions `scale` and `zero_point`."""
    scales = conversion.constant_value(node.inputs[scale], node, f"the {role} scale").astype(np.float32)
    zero_points = optional_zero_point(conversion, node, zero_point, role)
    if scales.size != 1 or (zero_points is not None and zero_points.size != 1):
        raise node.unsupported(
            f"{role} is quantized per axis ({scales.size} scales); opbridge supports one scale for activations",
            hint="quantize activations per tensor",
        )
    value = float(scales.reshape(()))
    if not np.isfinite(value) or value <= 0:
        raise node.unsupported(f"{role} scale {value} is not a positive finite number")
    return Quantization((value,), (0 if zero_points is None else int(zero_points.reshape(())),))


def filter_operands(
    conversion: OnnxConversion, node: OnnxNode, scale: int, zero_point: int, channels: int
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """The weights' scales (1 or one per output channel) and zero points."""
    scales = conversion.constant_value(node.inputs[scale], node, "the weight scale").astype(np.float32).reshape(-1)
    zero_points = optional_zero_point(conversion, node, zero_point, "weight")
    zero_points = np.zeros(scales.shape, np.int64) if zero_points is None else zero_points.reshape(-1)
    if scales.size not in (1, channels) or zero_points.size != scales.size:
        raise node.unsupported(
            f"{scales.size} weight scales and {zero_points.size} zero points for {channels} output channels",
            hint="one per tensor, or one per output channel",
        )
    if not (np.isfinite(scales).all() and (scales > 0).all()):
        raise node.unsupported("weight scales must be positive finite numbers")
    return tuple(float(s) for s in scales), tuple(int(z) for z in zero_points)


def bind_quantization(conversion: OnnxConversion, node: OnnxNode, index: int, quantization: Quantization) -> None:
    """The int8 tensor `index` is read with `quantization` (a graph input gets it here)."""
    tensor = conversion.tensor(index)
    if tensor.dtype is not DType.INT8:
        raise node.unsupported(f"input {tensor.describe()} is {tensor.dtype.value}; expected int8", hint=UINT8_HINT)
    if tensor.quantization is None:
        tensor.quantization = quantization
    elif tensor.quantization != quantization:
        raise node.unsupported(
            f"reads {tensor.describe()} with scale {quantization.scale} and zero point {quantization.zero_point}, "
            f"but it was written with scale {tensor.quantization.scales} and zero points "
            f"{tensor.quantization.zero_points}",
            hint="requantize explicitly (DequantizeLinear then QuantizeLinear)",
        )


def int8_input(conversion: OnnxConversion, node: OnnxNode, quantization: Quantization) -> int:
    index = conversion.value(node.inputs[0], node)
    bind_quantization(conversion, node, index, quantization)
    return index


def int8_weights(conversion: OnnxConversion, node: OnnxNode, position: int) -> np.ndarray:
    index = conversion.value(node.inputs[position], node)
    if conversion.tensor(index).dtype is not DType.INT8:
        raise node.unsupported(f"weights are {conversion.tensor(index).dtype.value}; expected int8", hint=UINT8_HINT)
    return conversion.constant_value(node.inputs[position], node, "the weights")


def int32_bias(conversion: OnnxConversion, node: OnnxNode, position: int) -> np.ndarray | None:
    if len(node.inputs) <= position or not node.inputs[position]:
        return None
    index = conversion.value(node.inputs[position], node)
    if conversion.tensor(index).dtype is not DType.INT32:
        raise node.unsupported(f"bias is {conversion.tensor(index).dtype.value}; expected int32")
    return conversion.constant_value(node.inputs[position], node, "the bias")


def fused_activation(node: OnnxNode) -> Activation:
    """The activation fuse_qdq folded into a QLinear op: none, Relu (1) or Clip(0, 6) (6)."""
    return {0: Activation.NONE, 1: Activation.RELU, 6: Activation.RELU6}[int(node.attribute(FUSED_RELU, 0))]


def requantization_of(node: OnnxNode) -> Requantization:
    """How an int8 op of this node rescales: onnxruntime's float arithmetic for ONNX models, TFLite's
    fixed-point multipliers for nodes a frontend marked so (the torch frontend's PT2E graphs)."""
    return Requantization.TFLITE if node.attribute(REQUANTIZATION, "onnx") == "tflite" else Requantization.ONNX


def dequantize_values(values: np.ndarray, scales: np.ndarray, zero_points: np.ndarray, axis: int) -> np.ndarray:
    """(q - zero_point) * scale in float32 (one rounding), per tensor or along `axis`."""
    shape = [1] * values.ndim
    if scales.size > 1:
        shape[axis % values.ndim] = -1
    centred = (values.astype(np.int64) - zero_points.reshape(shape)).astype(np.float32)
    return (centred * scales.reshape(shape)).astype(np.float32)


def dequantized_constant(conversion: OnnxConversion, node: OnnxNode) -> np.ndarray:
    values = conversion.constant_value(node.inputs[0], node, "the input")
    scales = conversion.constant_value(node.inputs[1], node, "the scale").astype(np.float32).reshape(-1)
    zero_points = optional_zero_point(conversion, node, 2, "input")
    zero_points = np.zeros(scales.shape, np.int64) if zero_points is None else zero_points.reshape(-1)
    axis = int(node.attribute("axis", 1))
    if scales.size > 1 and (values.ndim == 0 or values.shape[axis % values.ndim] != scales.size):
        raise node.unsupported(f"{scales.size} scales along axis {axis} of an input of shape {list(values.shape)}")
    return dequantize_values(values, scales, zero_points, axis)


def qlinear_operands(
    conversion: OnnxConversion,
    node: OnnxNode,
    *,
    weights_rank: int | tuple[int, ...],
    channels: Callable[[np.ndarray], int],
    output_at: int,
    symmetric: bool,
) -> tuple[int, np.ndarray, Int8Operands]:
    """A QLinear op's int8 input (its scale and zero point at 1 and 2), constant int8 weights (at 3;
    scales and zero points at 4 and 5, per tensor or per output channel) and output parameters
    (at output_at and output_at + 1). Weight zero points must be 0 if `symmetric` or per channel."""
    x = int8_input(conversion, node, per_tensor(conversion, node, 1, 2, "input"))
    weights = int8_weights(conversion, node, 3)
    ranks = (weights_rank,) if isinstance(weights_rank, int) else weights_rank
    if weights.ndim not in ranks:
        expected = " or ".join(map(str, ranks))
        raise node.unsupported(f"weights of shape {list(weights.shape)}: expected rank {expected}")
    scales, zero_points = filter_operands(conversion, node, 4, 5, channels(weights))
    if any(zero_points) and (symmetric or len(scales) > 1):
        raise node.unsupported(
            f"weight zero points {list(zero_points)}", hint="quantize the weights symmetrically (zero points 0)"
        )
    output = per_tensor(conversion, node, output_at, output_at + 1, "output")
    return x, weights, Int8Operands(scales, zero_points, output, fused_activation(node))


# Marks a Relu (1) or Clip(0, 6) (6) fused into a QLinear op by fuse_qdq (not an ONNX attribute).
FUSED_RELU = "opbridge_fused_relu"


# Marks a node whose int8 arithmetic is TFLite's ("tflite"; not an ONNX attribute): see requantization_of().
REQUANTIZATION = "opbridge_requantization"


# onnxruntime's QOperator ops (com.microsoft QLinearAdd, QLinearSigmoid ...) -------------------------


def qlinear_input(conversion: OnnxConversion, node: OnnxNode, value: int, scale: int, zero_point: int) -> int:
    """The int8 activation at input `value`, read with the per-tensor scale and zero point at `scale` and
    `zero_point` (bound to it if it has none yet)."""
    index = conversion.value(node.inputs[value], node)
    role = f"input {value}"
    bind_quantization(conversion, node, index, per_tensor(conversion, node, scale, zero_point, role))
    return index


def same_quantization(a: Quantization, b: Quantization) -> bool:
    """One float32 scale and one zero point: a requantization between them is the identity (onnxruntime's
    QLinearConcat copies such an input)."""
    return np.float32(a.scale) == np.float32(b.scale) and a.zero_point == b.zero_point


def lookup_table(
    input_q: Quantization, output_q: Quantization, function: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """The int8 result of `function` for each int8 input, -128..127 in order, computed as onnxruntime's
    QlinearBuildLookupTable computes its tables (QLinearSigmoid, QLinearLeakyRelu, QLinearConcat): each
    input dequantized in float32 (scale * (q - zero point)), `function` of those float32 values, then
    quantized as MlasQuantizeLinear does (divided by the output scale in float32, saturated, rounded
    halves to even, plus the zero point)."""
    centred = (np.arange(-128, 128, dtype=np.int64) - input_q.zero_point).astype(np.float32)
    values = (np.float32(input_q.scale) * centred).astype(np.float32)
    results = np.asarray(function(values), np.float32)
    zero_point = output_q.zero_point
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = (results / np.float32(output_q.scale)).astype(np.float32)
    low, high = np.float32(-128 - zero_point), np.float32(127 - zero_point)
    saturated = np.clip(np.nan_to_num(scaled, nan=0.0, posinf=high, neginf=low), low, high)
    return (np.rint(saturated).astype(np.int64) + zero_point).astype(np.int8)


def mlas_logistic(values: np.ndarray) -> np.ndarray:
    """onnxruntime's MlasComputeLogistic in float32: the input clamped to [-18, 18], p(x) / q(x) + 0.5
    with Eigen's odd and even polynomials, clamped to [0, 1]. Each multiply-add is fused (rounded once),
    as the FMA3 kernel onnxruntime runs on x86-64 CPUs with AVX2 computes it; the float64 sum of an exact
    float32 product rounds to the float32 a fused multiply-add gives, ties to a float32 midpoint aside."""
    f32 = np.float32

    def fma(a: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray | np.float32) -> np.ndarray:
        return (a.astype(np.float64) * np.float64(b) + np.float64(c)).astype(np.float32)

    x = np.clip(values.astype(np.float32), f32(-18.0), f32(18.0))
    squared = (x * x).astype(np.float32)
    p = fma(squared, f32(4.37031012579801e-11), f32(1.15627324459942e-07))
    for coefficient in (6.08574864600143e-05, 8.51377133304701e-03, 2.48287947061529e-01):
        p = fma(p, squared, f32(coefficient))
    p = (p * x).astype(np.float32)
    q = fma(squared, f32(6.10247389755681e-13), f32(5.76102136993427e-09))
    for coefficient in (6.29106785017040e-06, 1.70198817374094e-03, 1.16817656904453e-01, 9.93151921023180e-01):
        q = fma(q, squared, f32(coefficient))
    return np.clip((p / q).astype(np.float32) + f32(0.5), f32(0.0), f32(1.0)).astype(np.float32)
