# SPDX-License-Identifier: Apache-2.0
"""GATHER from ONNX: Gather(data, indices, axis).

ONNX wraps negative indices (-1 is the last slice); TFLite's GATHER does not.
Constant indices are therefore normalized here, to an int32 constant in
[0, size); indices from a graph input (int32 or int64, e.g. an embedding's
token ids) are passed through unchanged, so a negative or out-of-range index
is an error at run time (the reference raises InvalidInputError, the C
module returns OPBRIDGE_STATUS_INVALID_ARGUMENT).
"""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.gather.attributes import GatherAttributes


def convert_gather(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    rank = len(tensor.shape)
    axis = int(node.attribute("axis", 0))
    if not -rank <= axis < rank:
        raise node.unsupported(f"axis {axis} for data of rank {rank}")
    axis %= rank
    indices = conversion.value(node.inputs[1], node)
    data = conversion.tensor(indices).data
    if data is not None:
        size = tensor.shape[axis]
        values = np.asarray(data).astype(np.int64)
        if values.size and (values.min() < -size or values.max() >= size):
            raise node.unsupported(
                f"constant indices {values.ravel().tolist()[:8]} outside [{-size}, {size}) of axis {axis}",
                hint="ONNX allows indices in [-size, size) only",
            )
        normalized = np.where(values < 0, values + size, values).astype(np.int32)
        # add_tensor, not constant(): that makes a scalar index 1-D, which would keep the axis.
        indices = conversion.add_tensor(f"{node.name}/positions", DType.INT32, normalized.shape, normalized, bind=False)
    # Moved values keep their quantization (an int8 input of a QDQ model).
    quantization = [tensor.quantization if tensor.dtype is DType.INT8 else None]
    conversion.emit(
        "GATHER",
        [x, indices],
        GatherAttributes(axis=axis),
        name=node.name,
        outputs=node.outputs,
        quantization=quantization,
    )


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Gather", convert_gather),)
