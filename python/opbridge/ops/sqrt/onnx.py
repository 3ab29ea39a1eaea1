# SPDX-License-Identifier: Apache-2.0
"""SQRT from ONNX: Sqrt (float32)."""

from opbridge.frontends.onnx.converter_helpers import convert_unary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Sqrt", convert_unary("SQRT")),)
