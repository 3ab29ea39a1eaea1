# SPDX-License-Identifier: Apache-2.0
"""TANH from ONNX: Tanh."""

from opbridge.frontends.onnx.converter_helpers import convert_unary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Tanh", convert_unary("TANH")),)
