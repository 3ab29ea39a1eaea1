# SPDX-License-Identifier: Apache-2.0
"""PAD / PADV2 from ONNX: Pad in constant mode (PAD for a pad value of 0, PADV2 otherwise); Pad in
reflect and edge modes as slices of the input concatenated around it."""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.strided_slice.onnx import strided_slice


def convert_pad(conversion: OnnxConversion, node: OnnxNode) -> None:
    """Pad(data, pads[, constant_value[, axes]]) with constant pads (ONNX: all begins, then all ends)."""
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    rank = len(tensor.shape)
    mode = node.attribute("mode", "constant")
    if mode not in ("constant", "reflect", "edge"):
        raise node.unsupported(f"mode={mode!r} (only 'constant', 'reflect' and 'edge')")
    pads = [int(v) for v in conversion.constant_value(node.inputs[1], node, "the pads").ravel()]
    axes = list(range(rank))
    if len(node.inputs) > 3 and node.inputs[3]:
        given = [int(a) for a in conversion.constant_value(node.inputs[3], node, "the axes").ravel()]
        if any(not -rank <= a < rank for a in given) or len({a % rank for a in given}) != len(given):
            raise node.unsupported(f"axes {given} for an input of rank {rank} (each once, in [{-rank}, {rank}))")
        axes = [a % rank for a in given]
    if len(pads) != 2 * len(axes):
        raise node.unsupported(f"pads {pads} for {len(axes)} axes (expected {2 * len(axes)} values)")
    if min(pads) < 0:
        raise node.unsupported(f"negative pads {pads} (cropping)", hint="crop with Slice before padding")
    paddings = np.zeros((rank, 2), np.int32)
    for position, axis in enumerate(axes):
        paddings[axis] = (pads[position], pads[position + len(axes)])
    if mode != "constant":
        copied_padding(conversion, node, x, paddings, mode)
        return
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


def side(conversion: OnnxConversion, node: OnnxNode, x: int, axis: int, bounds: tuple[int, int, int], name: str) -> int:
    """A STRIDED_SLICE of `x` taking (start, stop, step) along `axis` and everything along the others."""
    every = [(0, size, 1) for size in conversion.tensor(x).shape]
    every[axis] = bounds
    return strided_slice(conversion, node, x, every, name, None)


def copied_padding(conversion: OnnxConversion, node: OnnxNode, x: int, paddings: np.ndarray, mode: str) -> None:
    """Pad in 'reflect' or 'edge' mode, axis by axis as numpy.pad does, from the kernels that exist:
    each side is a STRIDED_SLICE of the input (reversed for reflect: x[p:0:-1] before, x[n-2:n-2-p:-1]
    after; the first or last element p times for edge), joined by a CONCATENATION."""
    padded = [axis for axis in range(len(paddings)) if paddings[axis].any()]
    if not padded:
        conversion.alias(node.outputs[0], x)
        return
    for axis in padded:
        shape = conversion.tensor(x).shape
        size = shape[axis]
        before, after = (int(v) for v in paddings[axis])
        if mode == "reflect" and max(before, after) > size - 1:
            raise node.unsupported(f"reflect pads {before}, {after} on axis {axis} of size {size} (at most {size - 1})")
        name = f"{node.name}/axis{axis}"

        pieces: list[int | None] = []
        if mode == "reflect":
            if before:
                pieces.append(side(conversion, node, x, axis, (before, 0, -1), f"{name}/before"))
            pieces.append(x)
            if after:
                pieces.append(side(conversion, node, x, axis, (size - 2, size - 2 - after, -1), f"{name}/after"))
        else:
            pieces += [side(conversion, node, x, axis, (0, 1, 1), f"{name}/first")] * before if before else []
            pieces.append(x)
            pieces += [side(conversion, node, x, axis, (size - 1, size, 1), f"{name}/last")] * after if after else []
        last = axis == padded[-1]
        outputs: tuple[str, ...] | int = node.outputs if last else 1
        (x,) = conversion.emit(
            "CONCATENATION",
            pieces,
            ConcatenationAttributes(axis=axis),
            name=node.name if last else name,
            outputs=outputs,
        )


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Pad", convert_pad),)
