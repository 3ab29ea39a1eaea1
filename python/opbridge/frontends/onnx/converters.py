"""Standard ONNX operators (domain ai.onnx, opsets 13..21) -> opbridge operators.

Each converter maps one ONNX op onto opbridge's built-ins, which compute in
NHWC like TFLite: a 2-D convolution or pooling reads its NCHW input through
a TRANSPOSE to NHWC and gives its result back through a TRANSPOSE to NCHW,
so every ONNX value keeps its ONNX layout; the `cancel_transposes` pass then
removes each pair of transposes that undo each other. Weights are
rearranged at conversion time (OIHW -> OHWI). Attribute values opbridge
cannot honour (ceil_mode, grouped convolutions other than depthwise, ...)
raise UnsupportedOperatorError naming the node, the attribute and the value.

To add an op: write `convert_<op>(conversion, node)` and list it in
STANDARD_CONVERTERS (docs/onnx.md).
"""

import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Activation, Padding, Requantization, window
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.ops.div.attributes import DivAttributes
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.ops.softmax.attributes import SoftmaxAttributes

# ONNX opsets of the default domain this frontend converts.
MIN_OPSET, MAX_OPSET = 13, 21
TO_NHWC, TO_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)

Converter = Callable[[OnnxConversion, OnnxNode], None]


@dataclasses.dataclass(frozen=True)
class OnnxConverter:
    """Converts one standard ONNX op, for models importing ai.onnx at min_opset..max_opset.

    `domain` is "" for ONNX's own ops; a converter of another domain (onnxruntime's
    com.microsoft) is registered under "domain.op_type" and takes precedence over schemas.
    """

    op_type: str
    convert: Converter
    min_opset: int = MIN_OPSET
    max_opset: int = MAX_OPSET
    domain: str = ""

    @property
    def key(self) -> str:
        return converter_key(self.domain, self.op_type)


def converter_key(domain: str, op_type: str) -> str:
    """The onnx_converters key of an op: its type for ONNX's domain, else "domain.op_type"."""
    return op_type if domain in ("", "ai.onnx") else f"{domain}.{op_type}"


# Helpers ----------------------------------------------------------------------


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
    if auto_pad == "SAME_UPPER":
        return SpatialPadding(Padding.SAME, None)
    if auto_pad == "SAME_LOWER":
        lower = tuple((after, before) for before, after in same)
        return SpatialPadding(Padding.SAME, None) if tuple(same) == lower else SpatialPadding(Padding.VALID, lower)  # type: ignore[arg-type]
    if auto_pad != "NOTSET":
        raise node.unsupported(f"auto_pad={auto_pad!r} is not an ONNX value")
    pads = ints(node, "pads", (0, 0, 0, 0))
    if len(pads) != 4:
        raise node.unsupported(f"pads={list(pads)} is not 2-D padding")
    explicit = ((pads[0], pads[2]), (pads[1], pads[3]))
    if explicit == ((0, 0), (0, 0)):
        return SpatialPadding(Padding.VALID, None)
    if explicit == tuple(same):
        return SpatialPadding(Padding.SAME, None)
    return SpatialPadding(Padding.VALID, explicit)


def pad_nhwc(conversion: OnnxConversion, node: OnnxNode, index: int, explicit: tuple, value: float = 0.0) -> int:
    (top, bottom), (left, right) = explicit
    paddings = np.array([[0, 0], [top, bottom], [left, right], [0, 0]], np.int32)
    pad_input = conversion.constant(paddings, DType.INT32, f"{node.name}/paddings")
    if value != 0.0:
        raise node.unsupported("padding that is not zero", hint="use SAME or VALID padding")
    return conversion.emit("PAD", [index, pad_input], None, name=f"{node.name}/pad")[0]


def bind_nchw(conversion: OnnxConversion, node: OnnxNode, nhwc: int) -> None:
    transpose(conversion, nhwc, TO_NCHW, f"{node.name}/to_nchw", bind=node.outputs[0])


# Converters -------------------------------------------------------------------


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


def convert_conv(conversion: OnnxConversion, node: OnnxNode) -> None:
    weights = conversion.constant_value(node.inputs[1], node, "the weights")
    bias = node.inputs[2] if len(node.inputs) > 2 and node.inputs[2] else None
    convolution(conversion, node, conversion.value(node.inputs[0], node), weights, bias, None)


def convolution(
    conversion: OnnxConversion,
    node: OnnxNode,
    x: int,
    weights: np.ndarray,
    bias: str | None,
    int8: Int8Operands | None,
) -> None:
    """Conv (float32) or QLinearConv (int8: `int8` set): OIHW weights, an NCHW input."""
    require_rank(conversion, node, x, 4)
    if weights.ndim != 4:
        raise node.unsupported(f"weights of shape {list(weights.shape)}: only 2-D convolutions (OIHW)")
    out_channels, in_per_group, kernel_h, kernel_w = weights.shape
    in_channels = conversion.tensor(x).shape[1]
    group = int(node.attribute("group", 1))
    strides = ints(node, "strides", (1, 1))
    dilations = ints(node, "dilations", (1, 1))
    input_hw = conversion.tensor(x).shape[2:4]
    padding = spatial_padding(node, input_hw, (kernel_h, kernel_w), strides, dilations)  # type: ignore[arg-type]
    nhwc = transpose(conversion, x, TO_NHWC, f"{node.name}/to_nhwc")
    if padding.explicit is not None:
        nhwc = pad_nhwc(conversion, node, nhwc, padding.explicit)
    dtype = conversion.tensor(x).dtype
    bias_index = None if bias is None else conversion.value(bias, node)
    activation = Activation.NONE if int8 is None else int8.activation
    requantization = Requantization.TFLITE if int8 is None else Requantization.ONNX
    output_quantization = None if int8 is None else [int8.output]
    if group == 1:
        filter_q = None if int8 is None else int8.filter_quantization(axis=0)
        filter_index = conversion.constant(weights.transpose(0, 2, 3, 1), dtype, f"{node.name}/filter_ohwi", filter_q)
        attributes = Conv2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            dilation_height=dilations[0],
            dilation_width=dilations[1],
            activation=activation,
            requantization=requantization,
        )
        inputs = [nhwc, filter_index, bias_index]
        result = conversion.emit("CONV_2D", inputs, attributes, name=node.name, quantization=output_quantization)[0]
    elif group == in_channels and in_per_group == 1 and out_channels % in_channels == 0:
        filter_q = None if int8 is None else int8.filter_quantization(axis=3)
        filter_index = conversion.constant(weights.transpose(1, 2, 3, 0), dtype, f"{node.name}/filter_1hwc", filter_q)
        attributes_dw = DepthwiseConv2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            dilation_height=dilations[0],
            dilation_width=dilations[1],
            depth_multiplier=out_channels // in_channels,
            activation=activation,
            requantization=requantization,
        )
        inputs = [nhwc, filter_index, bias_index]
        result = conversion.emit(
            "DEPTHWISE_CONV_2D", inputs, attributes_dw, name=node.name, quantization=output_quantization
        )[0]
    else:
        raise node.unsupported(f"group={group} (only 1, or depthwise with group = input channels {in_channels})")
    bind_nchw(conversion, node, result)


def convert_pool(op_key: str) -> Converter:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        x = conversion.value(node.inputs[0], node)
        require_rank(conversion, node, x, 4)
        require_attribute(node, "ceil_mode", 0, 0)
        if tuple(node.attribute("dilations", (1, 1))) != (1, 1):
            raise node.unsupported(f"dilations={list(node.attribute('dilations'))} (only 1, 1)")
        kernel = ints(node, "kernel_shape", ())
        strides = ints(node, "strides", (1, 1))
        padding = spatial_padding(node, conversion.tensor(x).shape[2:4], kernel, strides, (1, 1))  # type: ignore[arg-type]
        if padding.explicit is not None:
            raise node.unsupported(
                f"pads={list(node.attribute('pads'))}: only no padding or TFLite SAME padding",
                hint="pad with a Pad node before the pool",
            )
        if op_key == "AVERAGE_POOL_2D" and padding.padding is Padding.SAME:
            require_attribute(node, "count_include_pad", 0, 0)  # TFLite averages over the valid elements
        nhwc = transpose(conversion, x, TO_NHWC, f"{node.name}/to_nhwc")
        attributes = Pool2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            filter_height=kernel[0],
            filter_width=kernel[1],
        )
        bind_nchw(conversion, node, conversion.emit(op_key, [nhwc], attributes, name=node.name)[0])

    return convert


def convert_global_average_pool(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    axes = conversion.constant(np.arange(2, rank, dtype=np.int32), DType.INT32, f"{node.name}/axes")
    conversion.emit("MEAN", [x, axes], MeanAttributes(keep_dims=True), name=node.name, outputs=node.outputs)


def convert_gemm(conversion: OnnxConversion, node: OnnxNode) -> None:
    a = conversion.value(node.inputs[0], node)
    b = conversion.constant_value(node.inputs[1], node, "B")
    c = conversion.constant_value(node.inputs[2], node, "C") if len(node.inputs) > 2 and node.inputs[2] else None
    gemm(conversion, node, a, b, c, None)


def gemm(
    conversion: OnnxConversion, node: OnnxNode, a: int, b: np.ndarray, c: np.ndarray | None, int8: Int8Operands | None
) -> None:
    """Gemm (float32) or QGemm (int8: `int8` set, C int32) as a FULLY_CONNECTED."""
    require_attribute(node, "transA", 0, 0)
    require_attribute(node, "alpha", 1.0, 1.0)
    if int8 is None:
        require_attribute(node, "beta", 1.0, 1.0)
    if b.ndim != 2:
        raise node.unsupported(f"B has rank {b.ndim}; only a 2-D constant B is supported")
    weights = b if node.attribute("transB", 0) else b.T  # FULLY_CONNECTED takes [units, depth]
    bias = None
    if c is not None:
        units = weights.shape[0]
        if c.size not in (1, units):
            raise node.unsupported(f"C of shape {list(c.shape)}: only one bias per output unit ({units}) or a scalar")
        bias = np.broadcast_to(c.reshape(-1), (units,))
    fully_connected(conversion, node, a, weights, bias, int8, keep_num_dims=False)


def convert_matmul(conversion: OnnxConversion, node: OnnxNode) -> None:
    a = conversion.value(node.inputs[0], node)
    b = conversion.constant_value(node.inputs[1], node, "B (the second operand)")
    if b.ndim != 2:
        raise node.unsupported(f"B has rank {b.ndim}; only a 2-D constant B is supported")
    fully_connected(conversion, node, a, b.T, None, None, keep_num_dims=len(conversion.tensor(a).shape) > 2)


def fully_connected(
    conversion: OnnxConversion,
    node: OnnxNode,
    a: int,
    weights: np.ndarray,
    bias: np.ndarray | None,
    int8: Int8Operands | None,
    *,
    keep_num_dims: bool,
) -> None:
    """A FULLY_CONNECTED of [units, depth] weights; int8 (ONNX requantization) when `int8` is set."""
    dtype = conversion.tensor(a).dtype
    filter_q = None if int8 is None else int8.filter_quantization(axis=0)
    inputs: list[int | None] = [a, conversion.constant(weights, dtype, f"{node.name}/weights", filter_q)]
    if bias is not None:
        bias_dtype = DType.INT32 if int8 is not None else dtype
        inputs.append(conversion.constant(bias, bias_dtype, f"{node.name}/bias"))
    attributes = FullyConnectedAttributes(
        activation=Activation.NONE if int8 is None else int8.activation,
        keep_num_dims=keep_num_dims,
        requantization=Requantization.TFLITE if int8 is None else Requantization.ONNX,
    )
    quantization = None if int8 is None else [int8.output]
    conversion.emit(
        "FULLY_CONNECTED", inputs, attributes, name=node.name, outputs=node.outputs, quantization=quantization
    )


def convert_binary(op_key: str) -> Converter:
    attributes = DivAttributes() if op_key == "DIV" else AddAttributes()

    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        inputs: list[int | None] = [conversion.value(name, node) for name in node.inputs]
        conversion.emit(op_key, inputs, attributes, name=node.name, outputs=node.outputs)

    return convert


def convert_unary(op_key: str) -> Converter:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        conversion.emit(op_key, [conversion.value(node.inputs[0], node)], None, name=node.name, outputs=node.outputs)

    return convert


def convert_clip(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)

    def bound(position: int, default: float) -> float:
        if len(node.inputs) <= position or not node.inputs[position]:
            return default
        return float(conversion.constant_value(node.inputs[position], node, "the clip bound").reshape(()))

    low, high = bound(1, float("-inf")), bound(2, float("inf"))
    if (low, high) == (0.0, 6.0):
        conversion.emit("RELU6", [x], None, name=node.name, outputs=node.outputs)
    elif (low, high) == (0.0, float("inf")):
        conversion.emit("RELU", [x], None, name=node.name, outputs=node.outputs)
    elif high == float("inf") and low == float("-inf"):
        convert_identity(conversion, node)
    else:
        # An unbounded side needs no node (and no infinite constant).
        dtype = conversion.tensor(x).dtype
        if high != float("inf"):
            upper = conversion.constant(np.array(high), dtype, f"{node.name}/max")
            outputs = node.outputs if low == float("-inf") else 1
            (x,) = conversion.emit("MINIMUM", [x, upper], None, name=f"{node.name}/minimum", outputs=outputs)
        if low != float("-inf"):
            lower = conversion.constant(np.array(low), dtype, f"{node.name}/min")
            conversion.emit("MAXIMUM", [x, lower], None, name=node.name, outputs=node.outputs)


def reshape_to(conversion: OnnxConversion, node: OnnxNode, x: int, shape: tuple[int, ...]) -> None:
    shape_input = conversion.constant(np.array(shape, np.int32), DType.INT32, f"{node.name}/shape")
    conversion.emit("RESHAPE", [x, shape_input], None, name=node.name, outputs=node.outputs)


def convert_flatten(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    axis = int(node.attribute("axis", 1)) % (len(shape) + 1) if shape else 0
    reshape_to(conversion, node, x, (int(np.prod(shape[:axis])), int(np.prod(shape[axis:]))))


def convert_reshape(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    target = [int(v) for v in conversion.constant_value(node.inputs[1], node, "the shape").ravel()]
    source = conversion.tensor(x).shape
    if not node.attribute("allowzero", 0):
        target = [source[i] if v == 0 else v for i, v in enumerate(target)]
    if target.count(-1) > 1:
        raise node.unsupported(f"shape {target} has more than one -1")
    if -1 in target:
        known = int(np.prod([v for v in target if v != -1]))
        target[target.index(-1)] = int(np.prod(source)) // max(known, 1)
    if int(np.prod(target)) != int(np.prod(source)):
        raise node.unsupported(f"cannot reshape {list(source)} to {target}")
    reshape_to(conversion, node, x, tuple(target))


def _axes(conversion: OnnxConversion, node: OnnxNode, rank: int) -> list[int] | None:
    """Squeeze's / Unsqueeze's axes (opset 13+: the constant input 1), normalized; None if omitted."""
    if len(node.inputs) < 2 or not node.inputs[1]:
        return None
    axes = [int(a) for a in conversion.constant_value(node.inputs[1], node, "the axes").ravel()]
    normalized = [a + rank if a < 0 else a for a in axes]
    if len(set(normalized)) != len(axes) or any(not 0 <= a < rank for a in normalized):
        raise node.unsupported(f"axes {axes} for rank {rank}")
    return normalized


def convert_squeeze(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    shape = conversion.tensor(x).shape
    axes = _axes(conversion, node, len(shape))
    if axes is None:
        axes = [axis for axis, size in enumerate(shape) if size == 1]
    if any(shape[a] != 1 for a in axes):
        raise node.unsupported(f"axes {axes} of shape {list(shape)} are not all of size 1")
    reshape_to(conversion, node, x, tuple(size for axis, size in enumerate(shape) if axis not in axes))


def convert_unsqueeze(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    shape = list(conversion.tensor(x).shape)
    if len(node.inputs) < 2 or not node.inputs[1]:
        raise node.unsupported("no axes input", hint="Unsqueeze takes its axes as input 1 from opset 13")
    added = conversion.constant_value(node.inputs[1], node, "the axes").size
    axes = _axes(conversion, node, len(shape) + added) or []
    for axis in sorted(axes):
        shape.insert(axis, 1)
    reshape_to(conversion, node, x, tuple(shape))


def convert_transpose(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    perm = ints(node, "perm", tuple(reversed(range(rank))))
    transpose(conversion, x, perm, node.name, bind=node.outputs[0])


def convert_concat(conversion: OnnxConversion, node: OnnxNode) -> None:
    inputs: list[int | None] = [conversion.value(name, node) for name in node.inputs]
    if "axis" not in node.attributes:
        raise node.unsupported("no axis attribute (Concat requires one)", hint="the model is damaged; re-export it")
    attributes = ConcatenationAttributes(axis=int(node.attribute("axis", 0)))
    conversion.emit("CONCATENATION", inputs, attributes, name=node.name, outputs=node.outputs)


def convert_softmax(conversion: OnnxConversion, node: OnnxNode) -> None:
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    if int(node.attribute("axis", -1)) % rank != rank - 1:
        raise node.unsupported(f"axis={node.attribute('axis')}: only the last axis", hint="transpose it last")
    conversion.emit("SOFTMAX", [x], SoftmaxAttributes(beta=1.0), name=node.name, outputs=node.outputs)


def convert_identity(conversion: OnnxConversion, node: OnnxNode) -> None:
    conversion.alias(node.outputs[0], conversion.value(node.inputs[0], node))


def batch_norm_factors(conversion: OnnxConversion, node: OnnxNode) -> tuple[np.ndarray, np.ndarray]:
    """Inference-mode BatchNormalization as y = x * factor + shift per channel (float32)."""
    if int(node.attribute("training_mode", 0)) != 0:
        raise node.unsupported("training_mode=1", hint="export the model in inference (eval) mode")
    scale, bias, mean, variance = (
        conversion.constant_value(name, node, role).astype(np.float32)
        for name, role in zip(node.inputs[1:5], ("the scale", "the bias", "the mean", "the variance"), strict=True)
    )
    epsilon = np.float32(node.attribute("epsilon", 1e-5))
    factor = (scale / np.sqrt(variance + epsilon)).astype(np.float32)
    return factor, (bias - mean * factor).astype(np.float32)


def convert_batch_normalization(conversion: OnnxConversion, node: OnnxNode) -> None:
    """A BatchNormalization that fold_batch_norms could not fold into a Conv: MUL then ADD per channel."""
    x = conversion.value(node.inputs[0], node)
    rank = len(conversion.tensor(x).shape)
    if rank < 2 or conversion.tensor(x).dtype is not DType.FLOAT32:
        raise node.unsupported(f"input {conversion.tensor(x).describe()}: expected float32 of rank 2 or more")
    factor, shift = batch_norm_factors(conversion, node)
    per_channel = (1, -1) + (1,) * (rank - 2)
    scale_input = conversion.constant(factor.reshape(per_channel), DType.FLOAT32, f"{node.name}/factor")
    shift_input = conversion.constant(shift.reshape(per_channel), DType.FLOAT32, f"{node.name}/shift")
    (scaled,) = conversion.emit("MUL", [x, scale_input], AddAttributes(), name=f"{node.name}/scale")
    conversion.emit("ADD", [scaled, shift_input], AddAttributes(), name=node.name, outputs=node.outputs)


def fold_batch_norms(nodes: list[OnnxNode], outputs: list[str], conversion: OnnxConversion) -> list[OnnxNode]:
    """Conv -> BatchNormalization, the Conv's output read by nothing else: one Conv with scaled
    weights and a shifted bias (onnxruntime's ConvBNFusion does the same)."""
    readers: dict[str, list[OnnxNode]] = {}
    for node in nodes:
        for name in node.inputs:
            readers.setdefault(name, []).append(node)
    writer = {name: node for node in nodes for name in node.outputs}
    replaced: dict[int, OnnxNode | None] = {}
    for node in nodes:
        if node.domain not in ("", "ai.onnx") or node.op_type != "BatchNormalization":
            continue
        conv = writer.get(node.inputs[0])
        if (
            conv is None
            or conv.op_type != "Conv"
            or conv.domain not in ("", "ai.onnx")
            or len(readers.get(conv.outputs[0], [])) != 1
            or conv.outputs[0] in outputs
            or any(not _is_constant(conversion, name) for name in (*conv.inputs[1:], *node.inputs[1:5]) if name)
            or int(node.attribute("training_mode", 0)) != 0
        ):
            continue
        factor, shift = batch_norm_factors(conversion, node)
        weights = conversion.constant_value(conv.inputs[1], conv, "the weights").astype(np.float32)
        bias = np.zeros(weights.shape[0], np.float32)
        if len(conv.inputs) > 2 and conv.inputs[2]:
            bias = conversion.constant_value(conv.inputs[2], conv, "the bias").astype(np.float32)
        folded_weights = (weights * factor.reshape(-1, *([1] * (weights.ndim - 1)))).astype(np.float32)
        folded_bias = (bias * factor + shift).astype(np.float32)
        w_name, b_name = f"{node.name}/folded_weights", f"{node.name}/folded_bias"
        conversion.add_tensor(w_name, DType.FLOAT32, folded_weights.shape, folded_weights)
        conversion.add_tensor(b_name, DType.FLOAT32, folded_bias.shape, folded_bias)
        inputs = (conv.inputs[0], w_name, b_name)
        replaced[id(conv)] = dataclasses.replace(conv, inputs=inputs, outputs=node.outputs)
        replaced[id(node)] = None
    rewritten = [replaced.get(id(node), node) for node in nodes]
    return [node for node in rewritten if node is not None]


def _is_constant(conversion: OnnxConversion, name: str) -> bool:
    index = conversion.by_name.get(name)
    return index is not None and conversion.tensor(index).data is not None


STANDARD_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Add", convert_binary("ADD")),
    OnnxConverter("AveragePool", convert_pool("AVERAGE_POOL_2D")),
    OnnxConverter("Clip", convert_clip),
    OnnxConverter("Concat", convert_concat),
    OnnxConverter("Conv", convert_conv),
    OnnxConverter("Div", convert_binary("DIV")),
    OnnxConverter("Flatten", convert_flatten),
    OnnxConverter("Gemm", convert_gemm),
    OnnxConverter("GlobalAveragePool", convert_global_average_pool),
    OnnxConverter("Identity", convert_identity),
    OnnxConverter("MatMul", convert_matmul),
    OnnxConverter("Max", convert_binary("MAXIMUM")),
    OnnxConverter("MaxPool", convert_pool("MAX_POOL_2D")),
    OnnxConverter("Min", convert_binary("MINIMUM")),
    OnnxConverter("Mul", convert_binary("MUL")),
    OnnxConverter("Relu", convert_unary("RELU")),
    OnnxConverter("Reshape", convert_reshape),
    OnnxConverter("Sigmoid", convert_unary("LOGISTIC")),
    OnnxConverter("Softmax", convert_softmax),
    OnnxConverter("Sub", convert_binary("SUB")),
    OnnxConverter("Tanh", convert_unary("TANH")),
    OnnxConverter("Transpose", convert_transpose),
    OnnxConverter("Squeeze", convert_squeeze),
    OnnxConverter("Unsqueeze", convert_unsqueeze),
    OnnxConverter("BatchNormalization", convert_batch_normalization),
)
