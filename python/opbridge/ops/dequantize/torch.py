# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE from torch.export: PT2E's quantized_decomposed.dequantize_per_tensor (int8 activations)
and dequantize_per_channel (int8 weights), as DequantizeLinear nodes; the int8 fusion folds them into
the int8 built-ins that read them, and the ones left (a float graph output) become DEQUANTIZE."""

import numpy as np

from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ir import DType
from opbridge.ops.definition import TorchConverter
from opbridge.ops.quantize.torch import INT8_HINT, quantization_constants


def convert_dequantize_per_tensor(translation: TorchTranslation, node: TorchNode) -> None:
    """dequantize_per_tensor(x, scale, zero_point, quant_min, quant_max, dtype)."""
    x, scale, zero_point, low, high, dtype = node.args[:6]
    scale_name, zero_name = quantization_constants(translation, node, scale, zero_point, (low, high), dtype)
    translation.onnx("DequantizeLinear", [translation.name(x), scale_name, zero_name])


# Per-channel constants opbridge's int8 kernels take: int8 weights, and int32 biases (scale
# input_scale * weight_scale, as opbridge's quantizer derives them).
PER_CHANNEL = {"torch.int8": (DType.INT8, -128, 127), "torch.int32": (DType.INT32, -(2**31), 2**31 - 1)}


def convert_dequantize_per_channel(translation: TorchTranslation, node: TorchNode) -> None:
    """dequantize_per_channel(x, scales, zero_points, axis, quant_min, quant_max, dtype): int8
    weights or int32 biases."""
    x, scales, zero_points, axis, low, high, dtype = node.args[:7]
    kind = PER_CHANNEL.get(str(dtype))
    if kind is None or not kind[1] <= int(low) <= int(high) <= kind[2]:
        raise node.unsupported(f"per-channel constants of {dtype} over [{low}, {high}]", hint=INT8_HINT)
    scale_data = translation.constant_data(scales)
    zero_data = None if zero_points is None else translation.constant_data(zero_points)
    if scale_data is None or (zero_points is not None and zero_data is None):
        raise node.unsupported("per-channel scales or zero points are not constants", hint=INT8_HINT)
    zero_dtype = kind[0]
    zeros = np.zeros(scale_data.shape, zero_dtype.numpy) if zero_data is None else zero_data.astype(zero_dtype.numpy)
    translation.onnx(
        "DequantizeLinear",
        [
            translation.name(x, "weights"),
            translation.constant(scale_data.astype(np.float32), DType.FLOAT32, "scales"),
            translation.constant(zeros, zero_dtype, "zero_points"),
        ],
        axis=int(axis),
    )


# Exercised by every int8 declare_supported case of the other converters.
TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("quantized_decomposed.dequantize_per_tensor.default", convert_dequantize_per_tensor),
    TorchConverter("quantized_decomposed.dequantize_per_tensor.tensor", convert_dequantize_per_tensor),
    TorchConverter("quantized_decomposed.dequantize_per_channel.default", convert_dequantize_per_channel),
)
