# SPDX-License-Identifier: Apache-2.0
"""What the ONNX converters of the operator folders (ops/<op>/onnx.py) share.

opbridge's built-ins compute in NHWC like TFLite: a 2-D convolution or pooling reads its NCHW input
through a TRANSPOSE to NHWC and gives its result back through a TRANSPOSE to NCHW, so every ONNX value
keeps its ONNX layout; the `cancel_transposes` pass then removes each pair of transposes that undo each
other. Attribute values opbridge cannot honour raise UnsupportedOperatorError naming the node, the
attribute and the value."""

import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Activation, Padding, window

TO_NHWC, TO_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)


Converter = Callable[[OnnxConversion, OnnxNode], None]


def transpose(conversion: OnnxConversion, index: int, perm: tuple[int, ...], name: str, bind: str | None = None) -> int:
    permutation = conversion.constant(np.array(perm, np.int32), DType.INT32, f"{name}/perm")
    outputs: tuple[str, ...] | int = (bind,) if bind is not None else 1
    return conversion.emit("TRANSPOSE", [index, permutation], None, name=name, outputs=outputs)[0]


def require_rank(conversion: OnnxConversion, node: OnnxNode, index: int, rank: int) -> None:
    shape = conversion.tensor(index).shape
    if len(shape) != rank:
        raise node.unsupported(f"input {conversion.tensor(index).describe()} has rank {len(shape)}; expected {rank}")


def ints(node: OnnxNode, name: str, default: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(v) for v in node.attribute(name, default))


def require_attribute(node: OnnxNode, name: str, allowed: object, default: object) -> None:
    value = node.attribute(name, default)
    if value != allowed:
        raise node.unsupported(f"attribute {name}={value!r} is not supported (only {allowed!r})")


@dataclasses.dataclass(frozen=True)
class SpatialPadding:
    padding: Padding
    explicit: tuple[tuple[int, int], tuple[int, int]] | None  # (top, bottom), (left, right) for a PAD first
    # The padding ONNX applies, (top, bottom), (left, right), whichever form it takes here.
    amounts: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))


def spatial_padding(
    node: OnnxNode,
    input_hw: tuple[int, int],
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilations: tuple[int, int],
) -> SpatialPadding:
    """TFLite SAME or VALID when ONNX's padding is one of them, else explicit padding (a PAD before a VALID op)."""
    auto_pad = node.attribute("auto_pad", "NOTSET")
    if auto_pad == "VALID":
        return SpatialPadding(Padding.VALID, None)
    same = []
    for axis in range(2):
        w = window(Padding.SAME, input_hw[axis], kernel[axis], strides[axis], dilations[axis])
        effective = (kernel[axis] - 1) * dilations[axis] + 1
        total = max(0, (w.output_size - 1) * strides[axis] + effective - input_hw[axis])
        same.append((total // 2, total - total // 2))
    same_amounts = (same[0], same[1])
    if auto_pad == "SAME_UPPER":
        return SpatialPadding(Padding.SAME, None, same_amounts)
    if auto_pad == "SAME_LOWER":
        lower = tuple((after, before) for before, after in same)
        if tuple(same) == lower:
            return SpatialPadding(Padding.SAME, None, same_amounts)
        return SpatialPadding(Padding.VALID, lower, lower)  # type: ignore[arg-type]
    if auto_pad != "NOTSET":
        raise node.unsupported(f"auto_pad={auto_pad!r} is not an ONNX value")
    pads = ints(node, "pads", (0, 0, 0, 0))
    if len(pads) != 4:
        raise node.unsupported(f"pads={list(pads)} is not 2-D padding")
    explicit = ((pads[0], pads[2]), (pads[1], pads[3]))
    if explicit == ((0, 0), (0, 0)):
        return SpatialPadding(Padding.VALID, None)
    if explicit == tuple(same):
        return SpatialPadding(Padding.SAME, None, explicit)
    return SpatialPadding(Padding.VALID, explicit, explicit)


def pad_nhwc(conversion: OnnxConversion, node: OnnxNode, index: int, explicit: tuple, value: float = 0.0) -> int:
    (top, bottom), (left, right) = explicit
    paddings = np.array([[0, 0], [top, bottom], [left, right], [0, 0]], np.int32)
    pad_input = conversion.constant(paddings, DType.INT32, f"{node.name}/paddings")
    if value != 0.0:
        raise node.unsupported("padding that is not zero", hint="use SAME or VALID padding")
    return conversion.emit("PAD", [index, pad_input], None, name=f"{node.name}/pad")[0]


def bind_nchw(conversion: OnnxConversion, node: OnnxNode, nhwc: int) -> None:
    transpose(conversion, nhwc, TO_NCHW, f"{node.name}/to_nchw", bind=node.outputs[0])


# 1-D convolutions and pools (NCW inputs) run on the 2-D kernels with a unit height: NCW is
# transposed to NWC and reshaped to N1WC, and back after the op. Between two 1-D layers the
# transposes to NCW and back are adjacent, so cancel_transposes removes them as it does in 2-D.
NCW_TO_NWC = (0, 2, 1)


def spatial_rank(conversion: OnnxConversion, node: OnnxNode, x: int) -> int:
    """The number of spatial axes of a Conv or pool input: 1 (NCW) or 2 (NCHW); others refused."""
    tensor = conversion.tensor(x)
    if len(tensor.shape) not in (3, 4):
        raise node.unsupported(
            f"input {tensor.describe()} has rank {len(tensor.shape)}: opbridge runs 1-D (rank 3) and 2-D "
            "(rank 4) convolutions and pools",
            hint="3-D convolutions and pools have no Cortex-M kernel; reshape the model to 2-D",
        )
    return len(tensor.shape) - 2


def with_unit_height(node: OnnxNode) -> OnnxNode:
    """A 1-D Conv or pool node with the attributes of the 2-D node that computes it on an N1WC input:
    kernel_shape, strides and dilations get a leading 1, pads (begin, end) become (0, begin, 0, end)."""
    attributes = dict(node.attributes)
    for name in ("kernel_shape", "strides", "dilations"):
        if name in attributes:
            values = [int(v) for v in node.attribute(name, (1,))]
            if len(values) != 1:
                raise node.unsupported(f"{name}={values} for a 1-D input (expected one value)")
            attributes[name] = [1, *values]
    if "pads" in attributes:
        pads = [int(v) for v in node.attribute("pads", (0, 0))]
        if len(pads) != 2:
            raise node.unsupported(f"pads={pads} for a 1-D input (expected begin and end)")
        attributes["pads"] = [0, pads[0], 0, pads[1]]
    return dataclasses.replace(node, attributes=attributes)


def to_nhwc(conversion: OnnxConversion, node: OnnxNode, x: int) -> int:
    """An NCHW input as NHWC, or an NCW input as N1WC (see NCW_TO_NWC)."""
    shape = conversion.tensor(x).shape
    if len(shape) == 4:
        return transpose(conversion, x, TO_NHWC, f"{node.name}/to_nhwc")
    nwc = transpose(conversion, x, NCW_TO_NWC, f"{node.name}/to_nwc")
    return reshape(conversion, nwc, (shape[0], 1, shape[2], shape[1]), f"{node.name}/to_n1wc")


def bind_from_nhwc(conversion: OnnxConversion, node: OnnxNode, nhwc: int, spatial: int) -> None:
    """The op's NHWC result bound to the node's ONNX output: NCHW, or NCW when `spatial` is 1."""
    if spatial == 2:
        bind_nchw(conversion, node, nhwc)
        return
    batch, _, width, channels = conversion.tensor(nhwc).shape
    nwc = reshape(conversion, nhwc, (batch, width, channels), f"{node.name}/to_nwc_out")
    transpose(conversion, nwc, NCW_TO_NWC, f"{node.name}/to_ncw", bind=node.outputs[0])


def reshape(conversion: OnnxConversion, x: int, shape: tuple[int, ...], name: str) -> int:
    shape_input = conversion.constant(np.array(shape, np.int32), DType.INT32, f"{name}/shape")
    return conversion.emit("RESHAPE", [x, shape_input], None, name=name)[0]


@dataclasses.dataclass(frozen=True)
class Int8Operands:
    """What a QLinear op (or a fused QDQ group) adds to its float form: the int8
    filter's quantization, the output's, and an activation fused by QDQ."""

    filter_scales: tuple[float, ...]  # one, or one per output channel
    filter_zero_points: tuple[int, ...]
    output: Quantization
    activation: Activation = Activation.NONE

    def filter_quantization(self, axis: int) -> Quantization:
        per_channel = len(self.filter_scales) > 1
        return Quantization(self.filter_scales, self.filter_zero_points, axis if per_channel else None)


def convert_binary(op_key: str, attributes: object = None) -> Converter:
    """An element-wise binary ONNX op onto `op_key` with the given (fixed) attributes."""

    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        inputs: list[int | None] = [conversion.value(name, node) for name in node.inputs]
        conversion.emit(op_key, inputs, attributes, name=node.name, outputs=node.outputs)

    return convert


def convert_variadic(op_key: str, attributes: object = None) -> Converter:
    """An ONNX op of one or more inputs (Max, Min, Sum) as a chain of binary `op_key` nodes, left to
    right; one input is the identity."""

    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        inputs = [conversion.value(name, node) for name in node.inputs]
        if len(inputs) == 1:
            conversion.alias(node.outputs[0], inputs[0])
            return
        total = inputs[0]
        for position, operand in enumerate(inputs[1:], start=1):
            last = position == len(inputs) - 1
            outputs: tuple[str, ...] | int = node.outputs if last else 1
            name = node.name if last else f"{node.name}/{position}"
            (total,) = conversion.emit(op_key, [total, operand], attributes, name=name, outputs=outputs)

    return convert


def convert_unary(op_key: str) -> Converter:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        conversion.emit(op_key, [conversion.value(node.inputs[0], node)], None, name=node.name, outputs=node.outputs)

    return convert


def reshape_to(conversion: OnnxConversion, node: OnnxNode, x: int, shape: tuple[int, ...]) -> None:
    shape_input = conversion.constant(np.array(shape, np.int32), DType.INT32, f"{node.name}/shape")
    conversion.emit("RESHAPE", [x, shape_input], None, name=node.name, outputs=node.outputs)


def axes_input(conversion: OnnxConversion, node: OnnxNode, rank: int) -> list[int] | None:
    """Squeeze's / Unsqueeze's axes (opset 13+: the constant input 1), normalized; None if omitted."""
    if len(node.inputs) < 2 or not node.inputs[1]:
        return None
    axes = [int(a) for a in conversion.constant_value(node.inputs[1], node, "the axes").ravel()]
    normalized = [a + rank if a < 0 else a for a in axes]
    if len(set(normalized)) != len(axes) or any(not 0 <= a < rank for a in normalized):
        raise node.unsupported(f"axes {axes} for rank {rank}")
    return normalized
