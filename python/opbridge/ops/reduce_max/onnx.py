# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX from ONNX: ReduceMax (opsets 13-17: the `axes` attribute; 18+: optional constant input 1;
`keepdims` default 1).

The converted node keeps TFLite Micro's semantics, which differ from ONNX's only where NaN or -inf is
reduced: NaN is skipped rather than propagated, and an all -inf (or all NaN) reduction gives -FLT_MAX.
"""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.mean.attributes import MeanAttributes


def convert_reduce_max(conversion: OnnxConversion, node: OnnxNode) -> None:
    """ReduceMax over constant axes: the `axes` attribute (opsets 13-17) or input 1 (18+); none given
    means every axis, unless noop_with_empty_axes (then the node is the identity)."""
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    if len(node.inputs) > 1 and node.inputs[1]:
        axes = [int(a) for a in conversion.constant_value(node.inputs[1], node, "the axes").ravel()]
    else:
        axes = [int(a) for a in node.attribute("axes", [0])] if "axes" in node.attributes else []
    if not axes:
        if node.attribute("noop_with_empty_axes", 0):
            conversion.alias(node.outputs[0], x)
            return
        axes = list(range(rank))
    if any(not -rank <= a < rank for a in axes):
        raise node.unsupported(f"axes {axes} for an input of rank {rank}")
    axes_index = conversion.constant(np.array([a % rank for a in axes], np.int32), DType.INT32, f"{node.name}/axes")
    attributes = MeanAttributes(keep_dims=bool(node.attribute("keepdims", 1)))
    conversion.emit("REDUCE_MAX", [x, axes_index], attributes, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("ReduceMax", convert_reduce_max),)
