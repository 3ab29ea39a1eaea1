# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE from ONNX: Transpose."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import ints, transpose
from opbridge.ops.definition import OnnxConverter


def convert_transpose(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    perm = ints(node, "perm", tuple(reversed(range(rank))))
    transpose(conversion, x, perm, node.name, bind=node.outputs[0])


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Transpose", convert_transpose),)
