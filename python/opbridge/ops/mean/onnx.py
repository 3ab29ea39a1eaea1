# SPDX-License-Identifier: Apache-2.0
"""MEAN from ONNX: GlobalAveragePool (the mean over the spatial axes, kept)."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.mean.attributes import MeanAttributes


def convert_global_average_pool(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    axes = conversion.constant(np.arange(2, rank, dtype=np.int32), DType.INT32, f"{node.name}/axes")
    conversion.emit("MEAN", [x, axes], MeanAttributes(keep_dims=True), name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("GlobalAveragePool", convert_global_average_pool),)
