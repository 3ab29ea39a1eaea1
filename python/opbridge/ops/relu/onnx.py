# SPDX-License-Identifier: Apache-2.0
"""RELU from ONNX: Relu (Clip(0, inf) also becomes RELU: frontends/onnx/composite.py)."""

from opbridge.frontends.onnx.converter_helpers import convert_unary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Relu", convert_unary("RELU")),)
