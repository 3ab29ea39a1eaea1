# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU from ONNX: LeakyRelu (alpha default 0.01)."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.leaky_relu.attributes import LeakyReluAttributes


def convert_leaky_relu(conversion: OnnxConversion, node: OnnxNode) -> None:
    attributes = LeakyReluAttributes(alpha=float(node.attribute("alpha", 0.01)))
    x = conversion.value(node.inputs[0], node)
    conversion.emit("LEAKY_RELU", [x], attributes, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("LeakyRelu", convert_leaky_relu),)
