# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION from ONNX: Concat."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.definition import OnnxConverter


def convert_concat(conversion: OnnxConversion, node: OnnxNode) -> None:
    inputs: list[int | None] = [conversion.value(name, node) for name in node.inputs]
    if "axis" not in node.attributes:
        raise node.unsupported("no axis attribute (Concat requires one)", hint="the model is damaged; re-export it")
    attributes = ConcatenationAttributes(axis=int(node.attribute("axis", 0)))
    conversion.emit("CONCATENATION", inputs, attributes, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Concat", convert_concat),)
