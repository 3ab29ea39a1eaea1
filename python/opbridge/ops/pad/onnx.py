# SPDX-License-Identifier: Apache-2.0
"""PAD / PADV2 from ONNX: Pad in constant mode (PAD for a pad value of 0, PADV2 otherwise)."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter


def convert_pad(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Pad(data, pads[, constant_value[, axes]]) with constant pads (ONNX: all begins, then all ends)."""
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    rank = len(tensor.shape)
    mode = node.attribute("mode", "constant")
    if mode != "constant":
        raise node.unsupported(f"mode={mode!r} (only 'constant')", hint="pad with zeros or a constant value")
    pads = [int(v) for v in conversion.constant_value(node.inputs[1], node, "the pads").ravel()]
    axes = list(range(rank))
    if len(node.inputs) > 3 and node.inputs[3]:
        axes = [int(a) % rank for a in conversion.constant_value(node.inputs[3], node, "the axes").ravel()]
    if len(pads) != 2 * len(axes):
        raise node.unsupported(f"pads {pads} for {len(axes)} axes (expected {2 * len(axes)} values)")
    if min(pads) < 0:
        raise node.unsupported(f"negative pads {pads} (cropping)", hint="crop with Slice before padding")
    paddings = np.zeros((rank, 2), np.int32)
    for position, axis in enumerate(axes):
        paddings[axis] = (pads[position], pads[position + len(axes)])
    value = 0.0
    if len(node.inputs) > 2 and node.inputs[2]:
        value = float(np.asarray(conversion.constant_value(node.inputs[2], node, "the pad value")).reshape(-1)[0])
    paddings_index = conversion.constant(paddings, DType.INT32, f"{node.name}/paddings")
    if tensor.dtype is DType.INT8:
        # ONNX pads int8 data with the raw value; TFLite's PAD pads with the zero point.
        zero_point = tensor.quantization.zero_points[0] if tensor.quantization is not None else None
        if zero_point is None or value != zero_point:
            raise node.unsupported(
                f"an int8 pad value of {value:g} that is not the input's zero point {zero_point}",
                hint="pad the float32 tensor before quantizing it",
            )
        conversion.emit("PAD", [x, paddings_index], None, name=node.name, outputs=node.outputs)
        return
    if value == 0.0:
        conversion.emit("PAD", [x, paddings_index], None, name=node.name, outputs=node.outputs)
        return
    value_index = conversion.constant(np.array(value), tensor.dtype, f"{node.name}/value")
    conversion.emit("PADV2", [x, paddings_index, value_index], None, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Pad", convert_pad),)
