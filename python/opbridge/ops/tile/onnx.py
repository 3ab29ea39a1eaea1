# SPDX-License-Identifier: Apache-2.0
"""TILE from ONNX: Tile(input, repeats) with constant repeats (int64 in ONNX, written as an int32 constant)."""

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


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Tile", convert_tile),)
