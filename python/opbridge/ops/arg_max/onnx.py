# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX from ONNX: ArgMax (select_last_index 0; keepdims 1 adds a RESHAPE that puts the axis back as 1).

ONNX values keep their ONNX layout in opbridge (NCHW stays NCHW), so the axis is taken as it is. The indices
are int64, as ONNX gives them. The converted node keeps TFLite Micro's semantics, which differ from
onnxruntime's only where NaN is compared (TFLite Micro's `>` and `<` are false with NaN).
"""

from collections.abc import Callable

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.arg_max.attributes import ArgMinMaxAttributes
from opbridge.ops.definition import OnnxConverter


def arg_min_max_converter(op_key: str) -> Callable[[OnnxConversion, OnnxNode], None]:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        x = conversion.value(node.inputs[0], node)
        shape = conversion.tensor(x).shape
        rank = len(shape)
        axis = int(node.attribute("axis", 0))
        if rank == 0 or not -rank <= axis < rank:
            raise node.unsupported(f"axis={axis} for an input of rank {rank}")
        if int(node.attribute("select_last_index", 0)) != 0:
            raise node.unsupported(
                "select_last_index=1 (the last of equal values)",
                hint=f"TFLite Micro's {op_key} returns the first of equal values; export with select_last_index=0",
            )
        axis %= rank
        keepdims = bool(node.attribute("keepdims", 1))
        axis_index = conversion.constant(np.array([axis], np.int32), DType.INT32, f"{node.name}/axis")
        attributes = ArgMinMaxAttributes(output_type=DType.INT64)
        if not keepdims:
            conversion.emit(op_key, [x, axis_index], attributes, name=node.name, outputs=node.outputs)
            return
        (indices,) = conversion.emit(op_key, [x, axis_index], attributes, name=f"{node.name}/indices")
        kept = tuple(1 if dimension == axis else size for dimension, size in enumerate(shape))
        target = conversion.constant(np.array(kept, np.int32), DType.INT32, f"{node.name}/shape")
        conversion.emit("RESHAPE", [indices, target], None, name=node.name, outputs=node.outputs)

    return convert


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("ArgMax", arg_min_max_converter("ARG_MAX")),)
