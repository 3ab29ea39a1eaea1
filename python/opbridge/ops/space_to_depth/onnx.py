# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH from ONNX: SpaceToDepth on NCHW, through a TRANSPOSE to NHWC and back.

ONNX's SpaceToDepth puts pixel (y, x) of each block, channel c, in output channel (y * block + x) * C + c,
TFLite's order, so the op runs as it is between the transposes (which cancel_transposes removes between
NHWC ops). An int8 value keeps its quantization.
"""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import TO_NCHW, TO_NHWC, transpose
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.depth_to_space.attributes import BlockSizeAttributes


def convert_space_to_depth(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    if len(tensor.shape) != 4:
        raise node.unsupported(f"input {tensor.describe()}: SpaceToDepth takes NCHW (rank 4)")
    block = int(node.attribute("blocksize", 0))
    _, _, height, width = tensor.shape
    if block < 1 or height % block or width % block:
        raise node.unsupported(f"blocksize {block} for height {height} and width {width} (must divide both)")
    nhwc = transpose(conversion, x, TO_NHWC, f"{node.name}/to_nhwc")
    (moved,) = conversion.emit(
        "SPACE_TO_DEPTH",
        [nhwc],
        BlockSizeAttributes(block_size=block),
        name=node.name,
        quantization=[conversion.tensor(nhwc).quantization],
    )
    transpose(conversion, moved, TO_NCHW, f"{node.name}/to_nchw", bind=node.outputs[0])


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("SpaceToDepth", convert_space_to_depth),)
