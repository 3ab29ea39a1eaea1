# SPDX-License-Identifier: Apache-2.0
"""MINIMUM from ONNX: Min of one or more inputs (a chain of MINIMUM nodes)."""

from opbridge.frontends.onnx.converter_helpers import convert_variadic
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Min", convert_variadic("MINIMUM")),)
