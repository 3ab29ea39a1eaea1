# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX from ONNX: Softmax over the last axis."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.softmax.attributes import SoftmaxAttributes


def convert_softmax(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    if int(node.attribute("axis", -1)) % rank != rank - 1:
        raise node.unsupported(f"axis={node.attribute('axis')}: only the last axis", hint="transpose it last")
    conversion.emit("SOFTMAX", [x], SoftmaxAttributes(beta=1.0), name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Softmax", convert_softmax),)
