# SPDX-License-Identifier: Apache-2.0
"""ADD from ONNX: Add (no fused activation)."""

from opbridge.frontends.onnx.converter_helpers import convert_binary
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Add", convert_binary("ADD", AddAttributes())),)
