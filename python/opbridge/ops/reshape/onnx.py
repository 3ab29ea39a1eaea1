# SPDX-License-Identifier: Apache-2.0
"""RESHAPE from ONNX: Reshape, Flatten and Unsqueeze."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import axes_input, reshape_to
from opbridge.ops.definition import OnnxConverter


def convert_flatten(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    axis = int(node.attribute("axis", 1)) % (len(shape) + 1) if shape else 0
    reshape_to(conversion, node, x, (int(np.prod(shape[:axis])), int(np.prod(shape[axis:]))))


def convert_reshape(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    target = [int(v) for v in conversion.constant_value(node.inputs[1], node, "the shape").ravel()]
    source = conversion.tensor(x).shape
    if not node.attribute("allowzero", 0):
        target = [source[i] if v == 0 else v for i, v in enumerate(target)]
    if target.count(-1) > 1:
        raise node.unsupported(f"shape {target} has more than one -1")
    if -1 in target:
        known = int(np.prod([v for v in target if v != -1]))
        target[target.index(-1)] = int(np.prod(source)) // max(known, 1)
    if int(np.prod(target)) != int(np.prod(source)):
        raise node.unsupported(f"cannot reshape {list(source)} to {target}")
    reshape_to(conversion, node, x, tuple(target))


def convert_unsqueeze(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    shape = list(conversion.tensor(x).shape)
    if len(node.inputs) < 2 or not node.inputs[1]:
        raise node.unsupported("no axes input", hint="Unsqueeze takes its axes as input 1 from opset 13")
    added = conversion.constant_value(node.inputs[1], node, "the axes").size
    axes = axes_input(conversion, node, len(shape) + added) or []
    for axis in sorted(axes):
        shape.insert(axis, 1)
    reshape_to(conversion, node, x, tuple(shape))


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Reshape", convert_reshape),
    OnnxConverter("Flatten", convert_flatten),
    OnnxConverter("Unsqueeze", convert_unsqueeze),
)
