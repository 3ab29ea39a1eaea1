# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE from ONNX: Squeeze (as a RESHAPE to the squeezed shape)."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import axes_input, reshape_to
from opbridge.ops.definition import OnnxConverter


def convert_squeeze(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    axes = axes_input(conversion, node, len(shape))
    if axes is None:
        axes = [axis for axis, size in enumerate(shape) if size == 1]
    if any(shape[a] != 1 for a in axes):
        raise node.unsupported(f"axes {axes} of shape {list(shape)} are not all of size 1")
    reshape_to(conversion, node, x, tuple(size for axis, size in enumerate(shape) if axis not in axes))


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Squeeze", convert_squeeze),)
