# SPDX-License-Identifier: Apache-2.0
"""FLOOR from ONNX: Floor (float32)."""

from opbridge.frontends.onnx.converter_helpers import convert_unary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Floor", convert_unary("FLOOR")),)
