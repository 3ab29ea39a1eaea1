# SPDX-License-Identifier: Apache-2.0
"""MEAN from ONNX: GlobalAveragePool (of other than 2-D maps: the mean over the spatial axes, kept) and ReduceMean."""

import dataclasses

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.average_pool_2d.onnx import convert_pool
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.mean.attributes import MeanAttributes


def convert_global_average_pool(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Over a float32 2-D map: one AVERAGE_POOL_2D window over all of it (NHWC, so the transposes
    around the convolutions before it cancel); otherwise MEAN of the spatial axes, kept (an int8
    AVERAGE_POOL_2D must keep its input's parameters, a MEAN may rescale)."""
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    rank = len(shape)
    # int8 keeps MEAN: AVERAGE_POOL_2D's int8 output must have its input's parameters.
    if rank == 4 and all(size > 0 for size in shape[2:]) and conversion.tensor(x).dtype is DType.FLOAT32:
        window = dataclasses.replace(node, attributes={"kernel_shape": list(shape[2:]), "strides": list(shape[2:])})
        convert_pool("AVERAGE_POOL_2D")(conversion, window)
        return
    axes = conversion.constant(np.arange(2, rank, dtype=np.int32), DType.INT32, f"{node.name}/axes")
    conversion.emit("MEAN", [x, axes], MeanAttributes(keep_dims=True), name=node.name, outputs=node.outputs)


def convert_reduce_mean(conversion: OnnxConversion, node: OnnxNode) -> None:
    """ReduceMean over constant axes: the `axes` attribute (opsets 13-17) or input 1 (18+); none given
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
    keep_dims = bool(node.attribute("keepdims", 1))
    shape = conversion.tensor(x).shape
    if (
        rank == 4
        and sorted(a % rank for a in axes) == [2, 3]
        and all(size > 0 for size in shape)
        and conversion.tensor(x).dtype is DType.FLOAT32
    ):
        # The mean over an NCHW map's spatial axes is a global average pool (what exporters write
        # for adaptive_avg_pool2d(x, 1)): the same AVERAGE_POOL_2D as GlobalAveragePool.
        pooled = node if keep_dims else dataclasses.replace(node, outputs=(f"{node.name}/pooled",))
        convert_global_average_pool(conversion, pooled)
        if not keep_dims:
            target = conversion.constant(np.array(shape[:2], np.int32), DType.INT32, f"{node.name}/shape")
            pooled_index = conversion.value(pooled.outputs[0], node)
            conversion.emit("RESHAPE", [pooled_index, target], None, name=f"{node.name}/squeeze", outputs=node.outputs)
        return
    axes_index = conversion.constant(np.array([a % rank for a in axes], np.int32), DType.INT32, f"{node.name}/axes")
    attributes = MeanAttributes(keep_dims=keep_dims)
    conversion.emit("MEAN", [x, axes_index], attributes, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("GlobalAveragePool", convert_global_average_pool),
    OnnxConverter("ReduceMean", convert_reduce_mean),
)
