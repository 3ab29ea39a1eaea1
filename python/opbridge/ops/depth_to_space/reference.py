# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's DEPTH_TO_SPACE (reference_ops::DepthToSpace), NHWC, DCR order; SPACE_TO_DEPTH's shared checks.

The input [N, H, W, C] with C = block^2 * D gives [N, H * block, W * block, D]:
output (n, h * block + y, w * block + x, d) is input (n, h, w, (y * block + x)
* D + d). SPACE_TO_DEPTH is its inverse. Elements are moved, never changed;
TFLite Micro takes float32 and int8 (of the input's type out), rank 4, and a
block size > 0 that divides the shape. For int8 opbridge also requires the
output's quantization to equal the input's (TFLite's converter writes them
equal; TFLite Micro moves the stored values with no rescale), and refuses
the node otherwise, naming it.
"""

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.depth_to_space.attributes import BlockSizeAttributes

DEPTH_SPACE_DTYPES = (DType.INT8, DType.FLOAT32)


def check_depth_space(graph: Graph, node: Node) -> int:
    """The node's block size, after checking the dtypes, the rank, the int8 quantization and the divisibility;
    typed errors naming the node."""
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    for role, tensor in (("input", input_tensor), ("output", output)):
        if tensor.dtype not in DEPTH_SPACE_DTYPES or tensor.dtype is not input_tensor.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: {node.op_type} supports int8 and float32, the "
                "same for input and output",
                hint="TFLite Micro's kernel takes these types only",
            )
    if input_tensor.dtype is DType.INT8:
        input_q, output_q = input_tensor.quantization, output.quantization
        if (input_q is None) != (output_q is None) or (
            input_q is not None
            and output_q is not None
            and (
                input_q.per_channel
                or output_q.per_channel
                or np.float32(input_q.scale) != np.float32(output_q.scale)
                or input_q.zero_point != output_q.zero_point
            )
        ):
            raise UnsupportedTensorError(
                f"{node.describe()}: input and output quantization differ ({input_q} vs {output_q})",
                hint=f"{node.op_type} moves the stored int8 values: give the output the input's per-tensor "
                "scale and zero point",
            )
    if len(input_tensor.shape) != 4:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has rank {len(input_tensor.shape)}; "
            f"{node.op_type} takes NHWC (rank 4)",
            hint="reshape the input to [batch, height, width, channels]",
        )
    attributes: BlockSizeAttributes | None = node.attributes
    block = attributes.block_size if attributes is not None else 0
    _, height, width, depth = input_tensor.shape
    if node.op_type == "DEPTH_TO_SPACE":
        fits = block >= 1 and depth % (block * block) == 0
        need = f"the channels ({depth}) must be a multiple of its square"
    else:
        fits = block >= 1 and height % block == 0 and width % block == 0
        need = f"the height ({height}) and width ({width}) must be multiples of it"
    if not fits:
        raise UnsupportedOperatorError(
            f"{node.describe()}: block_size {block} does not fit input {input_tensor.describe()}",
            hint=f"the block size must be >= 1 and {need}",
        )
    return block


def depth_to_space(values: Array, block: int) -> Array:
    n, h, w, c = values.shape
    depth = c // (block * block)
    moved = values.reshape(n, h, w, block, block, depth).transpose(0, 1, 3, 2, 4, 5)
    return moved.reshape(n, h * block, w * block, depth)


def space_to_depth(values: Array, block: int) -> Array:
    n, h, w, c = values.shape
    moved = values.reshape(n, h // block, block, w // block, block, c).transpose(0, 1, 3, 2, 4, 5)
    return moved.reshape(n, h // block, w // block, block * block * c)


def depth_to_space_reference(call: ReferenceCall) -> list[Array]:
    block = check_depth_space(call.graph, call.node)
    output = call.outputs[0]
    moved = depth_to_space(np.asarray(call.value(0), dtype=output.dtype.numpy), block)
    return [np.ascontiguousarray(moved).reshape(output.shape)]
