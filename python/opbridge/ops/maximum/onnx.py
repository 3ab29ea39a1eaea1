# SPDX-License-Identifier: Apache-2.0
"""MAXIMUM from ONNX: Max of two inputs."""

from opbridge.frontends.onnx.converter_helpers import convert_binary
from opbridge.ops.definition import OnnxConverter

ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Max", convert_binary("MAXIMUM")),)
