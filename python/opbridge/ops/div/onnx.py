# SPDX-License-Identifier: Apache-2.0
"""DIV from ONNX: Div (no fused activation)."""

from opbridge.frontends.onnx.converter_helpers import convert_binary
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.div.attributes import DivAttributes

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Div", convert_binary("DIV", DivAttributes())),)
