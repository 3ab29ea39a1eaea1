# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE from ONNX: Transpose, and DepthToSpace (RESHAPE, TRANSPOSE, RESHAPE)."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import ints, transpose
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter


def convert_transpose(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    perm = ints(node, "perm", tuple(reversed(range(rank))))
    transpose(conversion, x, perm, node.name, bind=node.outputs[0])


def convert_depth_to_space(conversion: OnnxConversion, node: OnnxNode) -> None:
    """DepthToSpace on NCHW (DCR or CRD mode), as ONNX defines it: a RESHAPE to 6-D, a TRANSPOSE
    and a RESHAPE back to 4-D."""
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    if len(shape) != 4:
        raise node.unsupported(f"input {conversion.tensor(x).describe()}: DepthToSpace takes NCHW (rank 4)")
    block = int(node.attribute("blocksize", 0))
    batch, channels, height, width = shape
    if block < 1 or channels % (block * block):
        raise node.unsupported(f"blocksize {block} for {channels} channels (must divide them as its square)")
    depth = channels // (block * block)
    mode = node.attribute("mode", "DCR")
    if mode == "DCR":
        six, perm = (batch, block, block, depth, height, width), (0, 3, 4, 1, 5, 2)
    elif mode == "CRD":
        six, perm = (batch, depth, block, block, height, width), (0, 1, 4, 2, 5, 3)
    else:
        raise node.unsupported(f"mode={mode!r} (only 'DCR' and 'CRD')")
    (blocks,) = conversion.emit("RESHAPE", [x, _shape(conversion, six, node, "split")], None, name=f"{node.name}/split")
    moved = transpose(conversion, blocks, perm, f"{node.name}/interleave")
    final = (batch, depth, height * block, width * block)
    merge = _shape(conversion, final, node, "merge")
    conversion.emit("RESHAPE", [moved, merge], None, name=node.name, outputs=node.outputs)


def _shape(conversion: OnnxConversion, shape: tuple[int, ...], node: OnnxNode, role: str) -> int:
    return conversion.constant(np.array(shape, np.int32), DType.INT32, f"{node.name}/{role}_shape")


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Transpose", convert_transpose),
    OnnxConverter("DepthToSpace", convert_depth_to_space),
)
