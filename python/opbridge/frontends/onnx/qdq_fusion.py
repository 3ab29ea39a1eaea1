# SPDX-License-Identifier: Apache-2.0
"""QDQ fusion: each DequantizeLinear -> op -> QuantizeLinear group that onnxruntime fuses becomes the
QLinear op (ONNX's, or onnxruntime's com.microsoft one), or the op on int8 values, before conversion;
everything else runs as the model defines it."""

import dataclasses

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.quantized_helpers import (
    BIAS_SCALE_RTOL,
    FUSED_RELU,
    MICROSOFT_DOMAIN,
    MOVES_VALUES,
    ONNX_DOMAINS,
)
from opbridge.ir import DType
from opbridge.ops.definition import converter_key


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


def _fused_activation(graph: _Graph, node: OnnxNode | None) -> int:
    """1 for a Relu, 6 for a Clip(0, 6) (FUSED_RELU's values), else 0."""
    if node is None or node.domain not in ONNX_DOMAINS:
        return 0
    if node.op_type == "Relu":
        return 1
    if node.op_type == "Clip" and len(node.inputs) == 3:
        low, high = graph.constant(node, 1, 0.0), graph.constant(node, 2, 0.0)
        if low is not None and high is not None and low.size == high.size == 1:
            return 6 if (float(low.reshape(-1)[0]), float(high.reshape(-1)[0])) == (0.0, 6.0) else 0
    return 0


def _quantize_after(graph: _Graph, node: OnnxNode) -> tuple[OnnxNode | None, OnnxNode | None]:
    """The QuantizeLinear that alone reads `node`'s output, through a Relu or Clip(0, 6) if there is one."""
    after = graph.only_reader(node.outputs[0])
    relu = None
    if _fused_activation(graph, after):
        relu, after = after, graph.only_reader(after.outputs[0])  # type: ignore[union-attr]
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
        attributes[FUSED_RELU] = _fused_activation(graph, relu)
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
    """DQ -> an op that only moves values (MOVES_VALUES: MaxPool, Reshape, Slice, Gather, ...) -> Q with
    equal parameters: the op on int8 values."""
    dq = graph.dequantize(node.inputs[0], constant=False, dtype=DType.INT8)
    quantize = graph.only_reader(node.outputs[0])
    if dq is None or quantize is None or quantize.domain not in ONNX_DOMAINS or quantize.op_type != "QuantizeLinear":
        return None
    for position, default in ((1, 1.0), (2, 0)):
        before, after = graph.constant(dq, position, default), graph.constant(quantize, position, default)
        if before is None or after is None or before.shape != after.shape or np.any(before != after):
            return None
    return dataclasses.replace(node, inputs=(dq.inputs[0], *node.inputs[1:]), outputs=quantize.outputs), [quantize]


# DQ -> op -> Q groups onnxruntime's CPU graph optimizer replaces with its com.microsoft QLinear op (its
# UnarySelector and InputVariadicSelector rules), and whose QLinear conversions (ops/shared/onnx_qoperator.py)
# compute what onnxruntime computes. Sigmoid, LeakyRelu and Concat's tables are also the float32 ops between
# DequantizeLinear and QuantizeLinear, element by element, as onnxruntime runs them unfused. Add and Mul
# (its BinarySelector, only with int8 allowed) stay QDQ islands: float32 as the model defines them.
QLINEAR_GROUPS = {
    "Sigmoid": "QLinearSigmoid",
    "LeakyRelu": "QLinearLeakyRelu",
    "AveragePool": "QLinearAveragePool",
    "GlobalAveragePool": "QLinearGlobalAveragePool",
    "Softmax": "QLinearSoftmax",
    "Concat": "QLinearConcat",
}


def _per_tensor(graph: _Graph, node: OnnxNode) -> list[str] | None:
    """A DequantizeLinear's or QuantizeLinear's constant per-tensor scale and int8 zero point, by name."""
    scale, zero_point = graph.constant(node, 1, 1.0), graph.constant(node, 2, 0)
    if len(node.inputs) < 3 or not node.inputs[2] or scale is None or zero_point is None:
        return None  # no zero point: uint8, which the QLinear conversions refuse
    if scale.size != 1 or zero_point.size != 1 or zero_point.dtype != np.int8:
        return None
    return [node.inputs[1], node.inputs[2]]


def _fuse_qlinear(graph: _Graph, node: OnnxNode) -> tuple[OnnxNode, list[OnnxNode]] | None:
    """DQ -> Sigmoid / LeakyRelu / AveragePool / GlobalAveragePool / Softmax -> Q, or DQs -> Concat -> Q,
    all int8 and per tensor, as onnxruntime's com.microsoft QLinear op (QLINEAR_GROUPS)."""
    quantize = graph.only_reader(node.outputs[0])
    if quantize is None or quantize.domain not in ONNX_DOMAINS or quantize.op_type != "QuantizeLinear":
        return None
    y = _per_tensor(graph, quantize)
    operands: list[list[str]] = []
    for name in node.inputs if node.op_type == "Concat" else node.inputs[:1]:
        dq = graph.dequantize(name, constant=False, dtype=DType.INT8)
        x = _per_tensor(graph, dq) if dq is not None else None
        if x is None:
            return None
        operands.append([dq.inputs[0], *x])  # type: ignore[union-attr]
    if y is None or (node.op_type != "Concat" and len(node.inputs) != 1):
        return None
    if node.op_type == "Softmax" and int(node.attribute("axis", -1)) != -1:
        # QLinearSoftmax converts over the last axis only; another axis stays a float32 island.
        rank = len(graph.conversion.tensor(graph.conversion.by_name[operands[0][0]]).shape)
        if int(node.attribute("axis", -1)) % max(rank, 1) != rank - 1:
            return None
    if node.op_type == "Concat":
        inputs = [*y, *(name for operand in operands for name in operand)]
    else:
        inputs = [*operands[0], *y]
    fused = dataclasses.replace(
        node,
        op_type=QLINEAR_GROUPS[node.op_type],
        domain=MICROSOFT_DOMAIN,
        inputs=tuple(inputs),
        outputs=quantize.outputs,
    )
    return fused, [quantize]


def fuse_qdq(
    nodes: list[OnnxNode], outputs: list[str], conversion: OnnxConversion, qlinear_groups: bool = False
) -> list[OnnxNode]:
    """The nodes with QDQ groups fused (see the module's doc), without the DequantizeLinears left unread.
    `qlinear_groups`: also the QLINEAR_GROUPS, as onnxruntime's com.microsoft ops (ONNX models; a PT2E
    program's float32 ops between its quantize and dequantize nodes are torch's, not onnxruntime's)."""
    graph = _Graph(nodes, frozenset(outputs), conversion)
    replaced: dict[int, OnnxNode | None] = {}
    for node in nodes:
        if node.domain not in ONNX_DOMAINS or id(node) in replaced:
            continue
        if node.op_type in ("Conv", "MatMul", "Gemm"):
            fusion = _fuse_weighted(graph, node)
        elif node.op_type in MOVES_VALUES:
            fusion = _fuse_mover(graph, node)
        elif qlinear_groups and node.op_type in QLINEAR_GROUPS and _converts(conversion, QLINEAR_GROUPS[node.op_type]):
            fusion = _fuse_qlinear(graph, node)
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


def _converts(conversion: OnnxConversion, microsoft_op: str) -> bool:
    """Whether the registry converts the com.microsoft op (a context of the built-ins alone, without the
    composite converters, keeps the group as DQ -> op -> Q for the qdq_islands pass)."""
    return converter_key(MICROSOFT_DOMAIN, microsoft_op) in conversion.context.onnx_converters


def _is_dequantize(node: OnnxNode) -> bool:
    return node.domain in ONNX_DOMAINS and node.op_type == "DequantizeLinear"
