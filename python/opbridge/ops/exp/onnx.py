# SPDX-License-Identifier: Apache-2.0
"""EXP from ONNX: Exp (float32)."""

from opbridge.frontends.onnx.converter_helpers import convert_unary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Exp", convert_unary("EXP")),)
