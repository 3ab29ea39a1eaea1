# SPDX-License-Identifier: Apache-2.0
"""MAXIMUM from ONNX: Max of one or more inputs (a chain of MAXIMUM nodes)."""

from opbridge.frontends.onnx.converter_helpers import convert_variadic
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Max", convert_variadic("MAXIMUM")),)
