# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX from ONNX: LogSoftmax (opset 13+: over one axis, `axis`, default -1).

LOG_SOFTMAX normalises over the last axis; another axis is swapped with the last by a TRANSPOSE before
and the same (self-inverse) TRANSPOSE after, so the node's output keeps the ONNX layout.
"""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import transpose
from opbridge.ops.definition import OnnxConverter


def convert_log_softmax(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    axis = int(node.attribute("axis", -1))
    if rank == 0 or not -rank <= axis < rank:
        raise node.unsupported(f"axis={axis} for an input of rank {rank}")
    axis %= rank
    if axis == rank - 1:
        conversion.emit("LOG_SOFTMAX", [x], None, name=node.name, outputs=node.outputs)
        return
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    last = transpose(conversion, x, tuple(perm), f"{node.name}/axis_last")
    (result,) = conversion.emit("LOG_SOFTMAX", [last], None, name=node.name)
    transpose(conversion, result, tuple(perm), f"{node.name}/axis_back", bind=node.outputs[0])


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("LogSoftmax", convert_log_softmax),)
