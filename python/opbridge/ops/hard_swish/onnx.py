# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH from ONNX: HardSwish (opset 14), y = x * max(0, min(1, x / 6 + 0.5)).

It converts to TFLite Micro's HARD_SWISH, x * min(6, max(0, x + 3)) / 6: the same function, rounded
differently. onnxruntime computes x * min(max(x * (1/6) + 0.5, 0), 1) in float32 (HardSigmoid, then Mul).
Measured over float32: equal for x <= -3, +-0, the infinities and NaN; within an ulp for x >= 3 (TFLite's
x * 6 / 6 may round); within 1e-6 absolute in (-3, 3) (a few ulps, more relative to the tiny results near
-3, where x / 6 + 0.5 loses the low bits that x + 3 keeps). For x > FLT_MAX / 6 TFLite's x * 6 overflows:
inf, where onnxruntime gives x. On int8 values (the torch frontend's fused DequantizeLinear -> HardSwish
-> QuantizeLinear groups, frontends/torch/int8_fusion.py) it is TFLite Micro's int8 HARD_SWISH.
"""

from opbridge.frontends.onnx.converter_helpers import convert_unary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("HardSwish", convert_unary("HARD_SWISH")),)
