"""Quantized ONNX models: QDQ (QuantizeLinear / DequantizeLinear around float
ops) and QLinear (QLinearConv, QLinearMatMul, onnxruntime's QGemm) int8.

`fuse_qdq` first rewrites each QDQ group, as onnxruntime does before it runs
a QDQ model, so that quantized models compute in int8 rather than through
float32:

- DequantizeLinear(x) and DequantizeLinear(constant int8 weights) [and
  DequantizeLinear(constant int32 bias)] -> Conv / MatMul / Gemm [-> Relu]
  -> QuantizeLinear becomes QLinearConv / QLinearMatMul / QGemm (the Relu
  becomes the fused activation, a clamp at the output zero point);
- DequantizeLinear -> MaxPool / Flatten / Reshape / Transpose ->
  QuantizeLinear with equal scale and zero point becomes the op on the int8
  values.

A group is fused only when the float op's output has no other reader and is
not a graph output; anything else keeps the float path (DEQUANTIZE, the
float op, QUANTIZE), which is what ONNX defines a QDQ model to compute.

The converters map the QLinear ops onto the int8 built-ins with
`Requantization.ONNX`: a float32 scale per output channel
(x_scale * w_scale / y_scale), saturation and rounding halves to even, as
ONNX defines QLinearConv and onnxruntime computes it. QuantizeLinear rounds
halves to even too. Activations must be int8 (uint8 models are refused
with a hint); weights int8 with zero points 0 when per channel.
"""

import dataclasses
from collections.abc import Callable

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converters import (
    Int8Operands,
    OnnxConverter,
    convolution,
    fully_connected,
    gemm,
)
from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Activation, Requantization
from opbridge.ops.quantize.attributes import QuantizeAttributes

ONNX_DOMAINS = ("", "ai.onnx")
MICROSOFT_DOMAIN = "com.microsoft"
# Relative difference allowed between a QDQ bias's scale and input_scale * weight_scale.
BIAS_SCALE_RTOL = 1e-6
# Ops that only move int8 values; QDQ around them with equal parameters is dropped.
MOVES_VALUES = ("MaxPool", "Flatten", "Reshape", "Transpose")
UINT8_HINT = "opbridge computes int8 activations; quantize with activation_type=QInt8 and weight_type=QInt8"


# Quantization parameters --------------------------------------------------------


def _zero_point(conversion: OnnxConversion, node: OnnxNode, position: int, role: str) -> np.ndarray | None:
    """The zero point input at `position` (None if omitted), which must be int8 (or int32 for a bias)."""
    if len(node.inputs) <= position or not node.inputs[position]:
        return None
    index = conversion.value(node.inputs[position], node)
    dtype = conversion.tensor(index).dtype
    if dtype not in (DType.INT8, DType.INT32):
        raise node.unsupported(f"{role} zero point is {dtype.value}", hint=UINT8_HINT)
    return conversion.constant_value(node.inputs[position], node, f"the {role} zero point").astype(np.int64)


def per_tensor(conversion: OnnxConversion, node: OnnxNode, scale: int, zero_point: int, role: str) -> Quantization:
    """One scale and zero point, from the inputs at positions `scale` and `zero_point`."""
    scales = conversion.constant_value(node.inputs[scale], node, f"the {role} scale").astype(np.float32)
    zero_points = _zero_point(conversion, node, zero_point, role)
    if scales.size != 1 or (zero_points is not None and zero_points.size != 1):
        raise node.unsupported(
            f"{role} is quantized per axis ({scales.size} scales); opbridge supports one scale for activations",
            hint="quantize activations per tensor",
        )
    value = float(scales.reshape(()))
    if not np.isfinite(value) or value <= 0:
        raise node.unsupported(f"{role} scale {value} is not a positive finite number")
    return Quantization((value,), (0 if zero_points is None else int(zero_points.reshape(())),))


def filter_operands(
    conversion: OnnxConversion, node: OnnxNode, scale: int, zero_point: int, channels: int
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """The weights' scales (1 or one per output channel) and zero points."""
    scales = conversion.constant_value(node.inputs[scale], node, "the weight scale").astype(np.float32).reshape(-1)
    zero_points = _zero_point(conversion, node, zero_point, "weight")
    zero_points = np.zeros(scales.shape, np.int64) if zero_points is None else zero_points.reshape(-1)
    if scales.size not in (1, channels) or zero_points.size != scales.size:
        raise node.unsupported(
            f"{scales.size} weight scales and {zero_points.size} zero points for {channels} output channels",
            hint="one per tensor, or one per output channel",
        )
    if not (np.isfinite(scales).all() and (scales > 0).all()):
        raise node.unsupported("weight scales must be positive finite numbers")
    return tuple(float(s) for s in scales), tuple(int(z) for z in zero_points)


def bind_quantization(conversion: OnnxConversion, node: OnnxNode, index: int, quantization: Quantization) -> None:
    """The int8 tensor `index` is read with `quantization` (a graph input gets it here)."""
    tensor = conversion.tensor(index)
    if tensor.dtype is not DType.INT8:
        raise node.unsupported(f"input {tensor.describe()} is {tensor.dtype.value}; expected int8", hint=UINT8_HINT)
    if tensor.quantization is None:
        tensor.quantization = quantization
    elif tensor.quantization != quantization:
        raise node.unsupported(
            f"reads {tensor.describe()} with scale {quantization.scale} and zero point {quantization.zero_point}, "
            f"but it was written with scale {tensor.quantization.scales} and zero points "
            f"{tensor.quantization.zero_points}",
            hint="requantize explicitly (DequantizeLinear then QuantizeLinear)",
        )


def int8_input(conversion: OnnxConversion, node: OnnxNode, quantization: Quantization) -> int:
    index = conversion.value(node.inputs[0], node)
    bind_quantization(conversion, node, index, quantization)
    return index


def int8_weights(conversion: OnnxConversion, node: OnnxNode, position: int) -> np.ndarray:
    index = conversion.value(node.inputs[position], node)
    if conversion.tensor(index).dtype is not DType.INT8:
        raise node.unsupported(f"weights are {conversion.tensor(index).dtype.value}; expected int8", hint=UINT8_HINT)
    return conversion.constant_value(node.inputs[position], node, "the weights")


def int32_bias(conversion: OnnxConversion, node: OnnxNode, position: int) -> np.ndarray | None:
    if len(node.inputs) <= position or not node.inputs[position]:
        return None
    index = conversion.value(node.inputs[position], node)
    if conversion.tensor(index).dtype is not DType.INT32:
        raise node.unsupported(f"bias is {conversion.tensor(index).dtype.value}; expected int32")
    return conversion.constant_value(node.inputs[position], node, "the bias")


def fused_activation(node: OnnxNode) -> Activation:
    return Activation.RELU if node.attribute(FUSED_RELU, 0) else Activation.NONE


# Converters ---------------------------------------------------------------------


def convert_quantize_linear(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QuantizeLinear(x float32, y_scale, y_zero_point int8) -> QUANTIZE (halves to even)."""
    if int(node.attribute("block_size", 0)) != 0:
        raise node.unsupported("blocked quantization (block_size)", hint="quantize per tensor")
    output_dtype = int(node.attribute("output_dtype", 0))
    if output_dtype not in (0, 3):  # 3: TensorProto.INT8
        raise node.unsupported(f"output_dtype={output_dtype}; opbridge quantizes to int8", hint=UINT8_HINT)
    if (len(node.inputs) < 3 or not node.inputs[2]) and output_dtype != 3:
        raise node.unsupported("no zero point: ONNX then quantizes to uint8", hint=UINT8_HINT)
    x = conversion.value(node.inputs[0], node)
    if conversion.tensor(x).dtype is not DType.FLOAT32:
        raise node.unsupported(f"input {conversion.tensor(x).describe()} is not float32")
    quantization = per_tensor(conversion, node, 1, 2, "output")
    attributes = QuantizeAttributes(requantization=Requantization.ONNX)
    conversion.emit("QUANTIZE", [x], attributes, name=node.name, outputs=node.outputs, quantization=[quantization])


def convert_dequantize_linear(conversion: OnnxConversion, node: OnnxNode) -> None:
    """DequantizeLinear: of a constant, a float32 constant; of an int8 activation, DEQUANTIZE."""
    if int(node.attribute("block_size", 0)) != 0:
        raise node.unsupported("blocked quantization (block_size)", hint="quantize per tensor or per axis")
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    if tensor.data is not None:
        conversion.add_tensor(node.outputs[0], DType.FLOAT32, tensor.shape, dequantized_constant(conversion, node))
        return
    quantization = per_tensor(conversion, node, 1, 2, "input")
    bind_quantization(conversion, node, x, quantization)
    conversion.emit("DEQUANTIZE", [x], None, name=node.name, outputs=node.outputs)


def dequantize_values(values: np.ndarray, scales: np.ndarray, zero_points: np.ndarray, axis: int) -> np.ndarray:
    """(q - zero_point) * scale in float32 (one rounding), per tensor or along `axis`."""
    shape = [1] * values.ndim
    if scales.size > 1:
        shape[axis % values.ndim] = -1
    centred = (values.astype(np.int64) - zero_points.reshape(shape)).astype(np.float32)
    return (centred * scales.reshape(shape)).astype(np.float32)


def dequantized_constant(conversion: OnnxConversion, node: OnnxNode) -> np.ndarray:
    values = conversion.constant_value(node.inputs[0], node, "the input")
    scales = conversion.constant_value(node.inputs[1], node, "the scale").astype(np.float32).reshape(-1)
    zero_points = _zero_point(conversion, node, 2, "input")
    zero_points = np.zeros(scales.shape, np.int64) if zero_points is None else zero_points.reshape(-1)
    axis = int(node.attribute("axis", 1))
    if scales.size > 1 and (values.ndim == 0 or values.shape[axis % values.ndim] != scales.size):
        raise node.unsupported(f"{scales.size} scales along axis {axis} of an input of shape {list(values.shape)}")
    return dequantize_values(values, scales, zero_points, axis)


def qlinear_operands(
    conversion: OnnxConversion,
    node: OnnxNode,
    *,
    weights_rank: int,
    channels: Callable[[np.ndarray], int],
    output_at: int,
    symmetric: bool,
) -> tuple[int, np.ndarray, Int8Operands]:
    """A QLinear op's int8 input (its scale and zero point at 1 and 2), constant int8 weights (at 3;
    scales and zero points at 4 and 5, per tensor or per output channel) and output parameters
    (at output_at and output_at + 1). Weight zero points must be 0 if `symmetric` or per channel."""
    x = int8_input(conversion, node, per_tensor(conversion, node, 1, 2, "input"))
    weights = int8_weights(conversion, node, 3)
    if weights.ndim != weights_rank:
        raise node.unsupported(f"weights of shape {list(weights.shape)}: expected rank {weights_rank}")
    scales, zero_points = filter_operands(conversion, node, 4, 5, channels(weights))
    if any(zero_points) and (symmetric or len(scales) > 1):
        raise node.unsupported(
            f"weight zero points {list(zero_points)}", hint="quantize the weights symmetrically (zero points 0)"
        )
    output = per_tensor(conversion, node, output_at, output_at + 1, "output")
    return x, weights, Int8Operands(scales, zero_points, output, fused_activation(node))


def convert_qlinear_conv(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B) -> int8 CONV_2D / DEPTHWISE_CONV_2D."""
    x, weights, int8 = qlinear_operands(
        conversion, node, weights_rank=4, channels=lambda w: w.shape[0], output_at=6, symmetric=True
    )
    has_bias = int32_bias(conversion, node, 8) is not None
    convolution(conversion, node, x, weights, node.inputs[8] if has_bias else None, int8)


def convert_qlinear_matmul(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp), b a 2-D constant -> int8 FULLY_CONNECTED."""
    a, b, int8 = qlinear_operands(
        conversion, node, weights_rank=2, channels=lambda w: w.shape[1], output_at=6, symmetric=False
    )
    keep = len(conversion.tensor(a).shape) > 2
    fully_connected(conversion, node, a, b.T, None, int8, keep_num_dims=keep)


def convert_qgemm(conversion: OnnxConversion, node: OnnxNode) -> None:
    """onnxruntime's QGemm(A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp) -> int8 FULLY_CONNECTED."""
    if len(node.inputs) < 8 or not node.inputs[7]:
        raise node.unsupported("no y_scale: QGemm then outputs float32", hint="quantize the output")
    units_axis = 0 if node.attribute("transB", 0) else 1
    a, b, int8 = qlinear_operands(
        conversion, node, weights_rank=2, channels=lambda w: w.shape[units_axis], output_at=7, symmetric=False
    )
    gemm(conversion, node, a, b, int32_bias(conversion, node, 6), int8)


QUANTIZED_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("DequantizeLinear", convert_dequantize_linear),
    OnnxConverter("QLinearConv", convert_qlinear_conv),
    OnnxConverter("QLinearMatMul", convert_qlinear_matmul),
    OnnxConverter("QuantizeLinear", convert_quantize_linear),
    OnnxConverter("QGemm", convert_qgemm, domain=MICROSOFT_DOMAIN, min_opset=13, max_opset=21),
)


# QDQ fusion ---------------------------------------------------------------------

# Marks a Relu fused into a QLinear op by fuse_qdq (not an ONNX attribute).
FUSED_RELU = "opbridge_fused_relu"


@dataclasses.dataclass
class _Graph:
    """The ONNX nodes with who writes and who reads each value."""

    nodes: list[OnnxNode]
    outputs: frozenset[str]
    conversion: OnnxConversion

    def __post_init__(self) -> None:
        self.writer = {name: node for node in self.nodes for name in node.outputs}
        self.readers: dict[str, list[OnnxNode]] = {}
        for node in self.nodes:
            for name in node.inputs:
                self.readers.setdefault(name, []).append(node)

    def only_reader(self, name: str) -> OnnxNode | None:
        """The one node reading `name`, if exactly one does and it is not a graph output."""
        readers = self.readers.get(name, [])
        return readers[0] if len(readers) == 1 and name not in self.outputs else None

    def is_constant(self, name: str) -> bool:
        index = self.conversion.by_name.get(name)
        return index is not None and self.conversion.tensor(index).data is not None

    def dequantize(self, name: str, *, constant: bool, dtype: DType) -> OnnxNode | None:
        """The DequantizeLinear writing `name` from a constant (or an activation) of `dtype`."""
        node = self.writer.get(name)
        if node is None or node.domain not in ONNX_DOMAINS or node.op_type != "DequantizeLinear":
            return None
        source = node.inputs[0]
        if self.is_constant(source) != constant:
            return None
        if constant and self.conversion.tensor(self.conversion.by_name[source]).dtype is not dtype:
            return None
        return node

    def constant(self, node: OnnxNode, position: int, default: float) -> np.ndarray | None:
        """A Q/DQ node's scale or zero point as an array (default if omitted; None if not constant)."""
        if len(node.inputs) <= position or not node.inputs[position]:
            return np.array([default])
        if not self.is_constant(node.inputs[position]):
            return None
        return self.conversion.tensor(self.conversion.by_name[node.inputs[position]]).data


def _quantize_after(graph: _Graph, node: OnnxNode) -> tuple[OnnxNode | None, OnnxNode | None]:
    """The QuantizeLinear that alone reads `node`'s output, through a Relu if there is one."""
    after = graph.only_reader(node.outputs[0])
    relu = None
    if after is not None and after.domain in ONNX_DOMAINS and after.op_type == "Relu":
        relu, after = after, graph.only_reader(after.outputs[0])
    if after is None or after.domain not in ONNX_DOMAINS or after.op_type != "QuantizeLinear":
        return None, None
    return after, relu


def _bias_scale_matches(graph: _Graph, dq_x: OnnxNode, dq_w: OnnxNode, dq_b: OnnxNode) -> bool:
    """A QDQ bias is summed in int32 only if its scale is input_scale * weight_scale and its zero point 0."""
    x_scale, w_scale = graph.constant(dq_x, 1, 1.0), graph.constant(dq_w, 1, 1.0)
    b_scale, b_zero = graph.constant(dq_b, 1, 1.0), graph.constant(dq_b, 2, 0)
    if x_scale is None or w_scale is None or b_scale is None or b_zero is None or np.any(b_zero != 0):
        return False
    expected = np.float32(x_scale.reshape(-1)[0]) * w_scale.astype(np.float32).reshape(-1)
    actual = b_scale.astype(np.float32).reshape(-1)
    if actual.size not in (1, expected.size) and expected.size != 1:
        return False
    return bool(np.allclose(actual, expected, rtol=BIAS_SCALE_RTOL, atol=0))


def _per_output_channel(graph: _Graph, dq_w: OnnxNode, node: OnnxNode) -> bool:
    """True if the weights' DequantizeLinear is per tensor or along the output channels."""
    scales = graph.constant(dq_w, 1, 1.0)
    if scales is None:
        return False
    if scales.size == 1:
        return True
    rank = graph.conversion.tensor(graph.conversion.by_name[dq_w.inputs[0]]).data.ndim  # type: ignore[union-attr]
    axis = int(dq_w.attribute("axis", 1)) % max(rank, 1)
    if node.op_type == "Conv":
        return axis == 0
    if node.op_type == "Gemm" and node.attribute("transB", 0):
        return axis == 0
    return axis == 1  # MatMul's and Gemm's B [K, N]: per column


def _fuse_weighted(graph: _Graph, node: OnnxNode) -> tuple[OnnxNode, list[OnnxNode]] | None:
    """DQ -> Conv / MatMul / Gemm [-> Relu] -> Q as one QLinear node, and the nodes it replaces."""
    if len(node.inputs) < 2:
        return None
    dq_x = graph.dequantize(node.inputs[0], constant=False, dtype=DType.INT8)
    dq_w = graph.dequantize(node.inputs[1], constant=True, dtype=DType.INT8)
    if dq_x is None or dq_w is None or not _per_output_channel(graph, dq_w, node):
        return None
    if node.op_type == "Gemm" and (
        node.attribute("transA", 0) or node.attribute("alpha", 1.0) != 1.0 or node.attribute("beta", 1.0) != 1.0
    ):
        return None
    bias_name = node.inputs[2] if node.op_type != "MatMul" and len(node.inputs) > 2 and node.inputs[2] else ""
    dq_b = graph.dequantize(bias_name, constant=True, dtype=DType.INT32) if bias_name else None
    if bias_name and (dq_b is None or not _bias_scale_matches(graph, dq_x, dq_w, dq_b)):
        return None
    quantize, relu = _quantize_after(graph, node)
    if quantize is None:
        return None

    def operands(dq: OnnxNode) -> list[str]:
        return [dq.inputs[0], dq.inputs[1], dq.inputs[2] if len(dq.inputs) > 2 else ""]

    y = [quantize.inputs[1], quantize.inputs[2] if len(quantize.inputs) > 2 else ""]
    bias = [] if dq_b is None else [dq_b.inputs[0]]
    attributes = dict(node.attributes)
    if relu is not None:
        attributes[FUSED_RELU] = 1
    if node.op_type == "Conv":
        op_type, domain, inputs = "QLinearConv", "", [*operands(dq_x), *operands(dq_w), *y, *bias]
    elif node.op_type == "MatMul":
        op_type, domain, inputs = "QLinearMatMul", "", [*operands(dq_x), *operands(dq_w), *y]
    else:
        op_type, domain = "QGemm", MICROSOFT_DOMAIN
        inputs = [*operands(dq_x), *operands(dq_w), bias[0] if bias else "", *y]
    fused = dataclasses.replace(
        node, op_type=op_type, domain=domain, inputs=tuple(inputs), outputs=quantize.outputs, attributes=attributes
    )
    return fused, [quantize] + ([relu] if relu is not None else [])


def _fuse_mover(graph: _Graph, node: OnnxNode) -> tuple[OnnxNode, list[OnnxNode]] | None:
    """DQ -> MaxPool / Flatten / Reshape / Transpose -> Q with equal parameters: the op on int8 values."""
    dq = graph.dequantize(node.inputs[0], constant=False, dtype=DType.INT8)
    quantize = graph.only_reader(node.outputs[0])
    if dq is None or quantize is None or quantize.domain not in ONNX_DOMAINS or quantize.op_type != "QuantizeLinear":
        return None
    for position, default in ((1, 1.0), (2, 0)):
        before, after = graph.constant(dq, position, default), graph.constant(quantize, position, default)
        if before is None or after is None or before.shape != after.shape or np.any(before != after):
            return None
    return dataclasses.replace(node, inputs=(dq.inputs[0], *node.inputs[1:]), outputs=quantize.outputs), [quantize]


def fuse_qdq(nodes: list[OnnxNode], outputs: list[str], conversion: OnnxConversion) -> list[OnnxNode]:
    """The nodes with QDQ groups fused (see the module's doc), without the DequantizeLinears left unread."""
    graph = _Graph(nodes, frozenset(outputs), conversion)
    replaced: dict[int, OnnxNode | None] = {}
    for node in nodes:
        if node.domain not in ONNX_DOMAINS or id(node) in replaced:
            continue
        if node.op_type in ("Conv", "MatMul", "Gemm"):
            fusion = _fuse_weighted(graph, node)
        elif node.op_type in MOVES_VALUES:
            fusion = _fuse_mover(graph, node)
        else:
            continue
        if fusion is not None:
            fused, removed = fusion
            replaced[id(node)] = fused
            replaced.update({id(r): None for r in removed})
    rewritten = [replaced.get(id(node), node) for node in nodes]
    kept = [node for node in rewritten if node is not None]
    read = {name for node in kept for name in node.inputs} | set(outputs)
    return [node for node in kept if not (_is_dequantize(node) and node.outputs[0] not in read)]


def _is_dequantize(node: OnnxNode) -> bool:
    return node.domain in ONNX_DOMAINS and node.op_type == "DequantizeLinear"
