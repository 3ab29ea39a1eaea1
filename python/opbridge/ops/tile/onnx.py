# SPDX-License-Identifier: Apache-2.0
"""TILE from ONNX: Tile(input, repeats) with constant repeats (int64 in ONNX, written as an int32
constant), and Expand (a RESHAPE to the output rank, then a TILE)."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter

INT32_MAX = 2**31 - 1


def convert_tile(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    repeats = [int(v) for v in conversion.constant_value(node.inputs[1], node, "the repeats").ravel()]
    if len(repeats) != len(tensor.shape) or min(repeats, default=0) < 0 or max(repeats, default=0) > INT32_MAX:
        raise node.unsupported(
            f"repeats {repeats} for an input of rank {len(tensor.shape)}",
            hint="give one repeat count in [0, 2^31) per input axis",
        )
    multiples = conversion.constant(np.array(repeats, np.int32), DType.INT32, f"{node.name}/multiples")
    # Moved values keep their quantization (an int8 input of a QDQ model).
    quantization = [tensor.quantization if tensor.dtype is DType.INT8 else None]
    conversion.emit("TILE", [x, multiples], None, name=node.name, outputs=node.outputs, quantization=quantization)


def convert_expand(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Expand(x, shape): x broadcast to `shape` (constant) NumPy-style, as a RESHAPE to the output's rank
    (leading 1s) and a TILE of each axis of size 1 that grows."""
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    target = [int(v) for v in conversion.constant_value(node.inputs[1], node, "the shape").ravel()]
    rank = max(len(target), len(tensor.shape))
    source = (1,) * (rank - len(tensor.shape)) + tuple(tensor.shape)
    target = [1] * (rank - len(target)) + target
    output = []
    for size, wanted in zip(source, target, strict=True):
        if size != wanted and 1 not in (size, wanted):
            raise node.unsupported(f"shape {target} does not broadcast {list(tensor.shape)}")
        output.append(max(size, wanted))
    if source != tuple(tensor.shape):
        shape_index = conversion.constant(np.array(source, np.int32), DType.INT32, f"{node.name}/rank_shape")
        rank_name = f"{node.name}/rank"
        (x,) = conversion.emit("RESHAPE", [x, shape_index], None, name=rank_name, quantization=[tensor.quantization])
    multiples = [wanted // size for size, wanted in zip(source, output, strict=True)]
    if all(m == 1 for m in multiples):
        conversion.alias(node.outputs[0], x)
        return
    multiples_index = conversion.constant(np.array(multiples, np.int32), DType.INT32, f"{node.name}/multiples")
    conversion.emit(
        "TILE", [x, multiples_index], None, name=node.name, outputs=node.outputs, quantization=[tensor.quantization]
    )


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Tile", convert_tile),
    OnnxConverter("Expand", convert_expand),
)
