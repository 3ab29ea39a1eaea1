# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE from torch.export: PT2E's quantized_decomposed.quantize_per_tensor (float32 -> int8 over
[-128, 127]), as a QuantizeLinear whose neighbours the int8 fusion turns into int8 built-ins."""

from typing import Any

import numpy as np

from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ir import DType
from opbridge.ops.definition import TorchConverter

INT8_HINT = "quantize activations to torch.int8 over [-128, 127] (opbridge's quantizer does: OpbridgeQuantizer)"


def quantization_constants(
    translation: TorchTranslation,
    node: TorchNode,
    scale: Any,
    zero_point: Any,
    quant_range: tuple[Any, Any],
    dtype: Any,
) -> tuple[str, str]:
    """The scale (float32) and zero point (int8) constants of a per-tensor quantize or dequantize."""
    if str(dtype) != "torch.int8":
        raise node.unsupported(f"dtype {dtype}", hint=INT8_HINT)
    low, high = quant_range
    if not (-128 <= int(low) <= int(high) <= 127):
        raise node.unsupported(f"quant range [{low}, {high}] is not within int8", hint=INT8_HINT)

    def number(value: Any, role: str) -> float:
        if isinstance(value, int | float):
            return float(value)
        data = translation.constant_data(value)
        if data is None or data.size != 1:
            raise node.unsupported(f"{role} is not one constant", hint="quantize with static per-tensor parameters")
        return float(data.reshape(-1)[0])

    scale_value, zero_value = number(scale, "the scale"), number(zero_point, "the zero point")
    if not scale_value > 0 or not -128 <= zero_value <= 127:
        raise node.unsupported(f"scale {scale_value}, zero point {zero_value}", hint=INT8_HINT)
    return (
        translation.constant(np.float32(scale_value), DType.FLOAT32, "scale"),
        translation.constant(np.int8(int(zero_value)), DType.INT8, "zero_point"),
    )


def convert_quantize_per_tensor(translation: TorchTranslation, node: TorchNode) -> None:
    """quantize_per_tensor(x, scale, zero_point, quant_min, quant_max, dtype)."""
    x, scale, zero_point, low, high, dtype = node.args[:6]
    scale_name, zero_name = quantization_constants(translation, node, scale, zero_point, (low, high), dtype)
    translation.onnx("QuantizeLinear", [translation.name(x), scale_name, zero_name])


# Exercised by every int8 declare_supported case of the other converters.
TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("quantized_decomposed.quantize_per_tensor.default", convert_quantize_per_tensor),
    TorchConverter("quantized_decomposed.quantize_per_tensor.tensor", convert_quantize_per_tensor),
)
