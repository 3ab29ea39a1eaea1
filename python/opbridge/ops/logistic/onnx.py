# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC from ONNX: Sigmoid."""

from opbridge.frontends.onnx.converter_helpers import convert_unary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Sigmoid", convert_unary("LOGISTIC")),)
