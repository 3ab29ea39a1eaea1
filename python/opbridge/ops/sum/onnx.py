# SPDX-License-Identifier: Apache-2.0
"""SUM from ONNX: ReduceSum (opset 13+: the axes as optional constant input 1, `keepdims` default 1)."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.mean.attributes import MeanAttributes


def convert_reduce_sum(conversion: OnnxConversion, node: OnnxNode) -> None:
    """ReduceSum over constant axes; none given (input 1 omitted or empty) means every axis, unless
    noop_with_empty_axes (then the node is the identity)."""
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    axes: list[int] = []
    if len(node.inputs) > 1 and node.inputs[1]:
        axes = [int(a) for a in conversion.constant_value(node.inputs[1], node, "the axes").ravel()]
    if not axes:
        if node.attribute("noop_with_empty_axes", 0):
            conversion.alias(node.outputs[0], x)
            return
        axes = list(range(rank))
    if any(not -rank <= a < rank for a in axes):
        raise node.unsupported(f"axes {axes} for an input of rank {rank}")
    axes_index = conversion.constant(np.array([a % rank for a in axes], np.int32), DType.INT32, f"{node.name}/axes")
    attributes = MeanAttributes(keep_dims=bool(node.attribute("keepdims", 1)))
    conversion.emit("SUM", [x, axes_index], attributes, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("ReduceSum", convert_reduce_sum),)
