# SPDX-License-Identifier: Apache-2.0
"""The int8 graph of a PT2E-quantized program, on the translated ONNX-semantics nodes.

After `convert_pt2e` every quantized op sits between dequantize and quantize
nodes (QuantizeLinear / DequantizeLinear once translated), with its weights in
int8 buffers and its bias in float32. Three steps turn that into the int8
built-ins TFLite Micro runs:

1. `quantize_float_biases`: a Conv or Gemm whose input and weights are
   dequantized int8 gets its float bias as int32, quantized with scale
   input_scale * weight_scale and zero point 0 as TFLite's converter does, so
   that the ONNX frontend's QDQ fusion (frontends/onnx/qdq_fusion.py) makes it
   an int8 CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED with the int32 bias,
   multipliers and shifts computed at conversion time.
2. `fuse_int8_groups`: every other DQ -> op -> Q group of an op with an int8
   built-in (add, mul, pools, mean, softmax, sigmoid, tanh, hard swish, relu,
   concat, pad, custom ops whose schema takes int8, and the ONNX ops of any
   one-input element-wise operator whose definition gives it an int8 output of
   its own or fixed, GELU) becomes the op on the int8
   values, its output quantized with the Q's scale and zero point.
3. `set_output_quantization`, after each node is converted: the int8 tensors
   the converter created without quantization (the op's output and the
   transposes around it) get the group's output quantization.

What is not fused runs as the program says: dequantize, float op, quantize.
"""

import dataclasses

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.torch.translation import OPBRIDGE_DOMAIN
from opbridge.ir import DType, Quantization
from opbridge.ops.definition import QuantizationKind, is_elementwise, output_quantization

# ONNX ops (as the torch converters write them) whose int8 form is an opbridge built-in with its
# own output quantization: inputs that are not constants must be dequantized int8 per tensor. Ops
# that only move values (max pool, reshape, transpose, pad ...) run on int8 only when their input
# and output parameters are equal, which the ONNX QDQ fusion checks (MOVES_VALUES).
INT8_OPS = frozenset(
    {
        "Add",
        "Sub",
        "Mul",
        "AveragePool",
        "GlobalAveragePool",
        "ReduceMean",
        "Softmax",
        "Sigmoid",
        "Tanh",
        "HardSwish",
        "Relu",
        "Clip",
        "LeakyRelu",
        "Concat",
    }
)

# Constant inputs an int8 op may read (shapes, axes, pads, bounds); any other constant input
# (a float operand of an Add, say) keeps the op in float.
CONSTANT_INPUTS: dict[str, frozenset[int]] = {"ReduceMean": frozenset({1}), "Clip": frozenset({1, 2})}

# Ops whose int8 kernel keeps the input's scale and zero point (TFLite's AVERAGE_POOL_2D): fused only
# when the quantize after them has the dequantize's parameters, else they run in float.
EQUAL_PARAMETERS = frozenset({"AveragePool"})

# Clip bounds with an int8 built-in (RELU, RELU6); other bounds stay float.
INT8_CLIP_BOUNDS = ((0.0, 6.0), (0.0, float("inf")))

ONNX_DOMAINS = ("", "ai.onnx")


class _Nodes:
    def __init__(self, nodes: list[OnnxNode], outputs: list[str], conversion: OnnxConversion) -> None:
        self.nodes = nodes
        self.outputs = frozenset(outputs)
        self.conversion = conversion
        self.writer = {name: node for node in nodes for name in node.outputs}
        self.readers: dict[str, list[OnnxNode]] = {}
        for node in nodes:
            for name in node.inputs:
                self.readers.setdefault(name, []).append(node)
        self._elementwise_int8: frozenset[str] | None = None

    def elementwise_int8_ops(self) -> frozenset[str]:
        """ONNX ops that convert onto a one-input element-wise operator with an int8 form and an int8 output
        of its own or fixed (GELU): fused as their definition says, with no rule here."""
        if self._elementwise_int8 is None:
            found = set()
            for definition in self.conversion.context.operators.definitions():
                schema = definition.schema
                if schema is None or len(schema.inputs) != 1 or not is_elementwise(definition):
                    continue
                if DType.INT8 not in schema.constraint(schema.inputs[0].type_var).allowed:
                    continue
                kind = output_quantization(definition).kind
                if kind in (QuantizationKind.OWN, QuantizationKind.FIXED):
                    found.update(c.op_type for c in definition.onnx_converters if c.domain in ONNX_DOMAINS)
            self._elementwise_int8 = frozenset(found)
        return self._elementwise_int8

    def constant(self, name: str) -> np.ndarray | None:
        index = self.conversion.by_name.get(name)
        return None if index is None else self.conversion.tensor(index).data

    def writer_of(self, name: str, op_type: str) -> OnnxNode | None:
        node = self.writer.get(name)
        return node if node is not None and node.domain in ONNX_DOMAINS and node.op_type == op_type else None

    def only_reader(self, name: str, op_type: str) -> OnnxNode | None:
        readers = self.readers.get(name, [])
        if len(readers) != 1 or name in self.outputs:
            return None
        node = readers[0]
        return node if node.domain in ONNX_DOMAINS and node.op_type == op_type else None

    def per_tensor_int8(self, node: OnnxNode) -> tuple[float, int] | None:
        """The (scale, zero point) of a Q or DQ node quantizing per tensor to int8, else None."""
        if len(node.inputs) < 3:
            return None
        scale, zero_point = self.constant(node.inputs[1]), self.constant(node.inputs[2])
        if scale is None or zero_point is None or scale.size != 1 or zero_point.dtype != np.int8:
            return None
        return float(np.float32(scale.reshape(-1)[0])), int(zero_point.reshape(-1)[0])


def quantize_float_biases(nodes: list[OnnxNode], conversion: OnnxConversion) -> list[OnnxNode]:
    """Conv / Gemm with dequantized int8 input and weights and a float32 constant bias: the bias as
    int32 (scale input_scale * weight_scale per output channel, zero point 0) behind a DequantizeLinear."""
    graph = _Nodes(nodes, [], conversion)
    rewritten: list[OnnxNode] = []
    for node in nodes:
        if node.domain not in ONNX_DOMAINS or node.op_type not in ("Conv", "Gemm") or len(node.inputs) < 3:
            rewritten.append(node)
            continue
        dq_x = graph.writer_of(node.inputs[0], "DequantizeLinear")
        dq_w = graph.writer_of(node.inputs[1], "DequantizeLinear")
        bias = graph.constant(node.inputs[2]) if node.inputs[2] else None
        if dq_x is None or dq_w is None or bias is None or bias.dtype != np.float32:
            rewritten.append(node)
            continue
        x_scale = graph.constant(dq_x.inputs[1]) if len(dq_x.inputs) > 1 else None
        w_scale = graph.constant(dq_w.inputs[1]) if len(dq_w.inputs) > 1 else None
        if x_scale is None or w_scale is None or x_scale.size != 1 or graph.constant(dq_w.inputs[0]) is None:
            rewritten.append(node)
            continue
        scales = (np.float32(x_scale.reshape(-1)[0]) * w_scale.astype(np.float32).reshape(-1)).astype(np.float32)
        if scales.size == 1 and bias.size > 1:
            scales = np.full(bias.size, scales[0], np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            quantized = np.where(scales > 0, np.round(bias.astype(np.float64) / scales.astype(np.float64)), 0)
        limits = np.iinfo(np.int32)
        quantized = np.clip(quantized, limits.min, limits.max).astype(np.int32)
        base = f"{node.name}/bias"
        names = (f"{base}:int32", f"{base}:scale", f"{base}:zero_point", f"{base}:dequantized")
        conversion.add_tensor(names[0], DType.INT32, quantized.shape, quantized)
        conversion.add_tensor(names[1], DType.FLOAT32, scales.shape, scales)
        zeros = np.zeros(scales.shape, np.int32)
        conversion.add_tensor(names[2], DType.INT32, zeros.shape, zeros)
        rewritten.append(OnnxNode("DequantizeLinear", "", base, names[:3], (names[3],), {"axis": 0}, node.position))
        rewritten.append(dataclasses.replace(node, inputs=(node.inputs[0], node.inputs[1], names[3])))
    return rewritten


def _int8_capable(graph: _Nodes, node: OnnxNode) -> bool:
    if node.domain == OPBRIDGE_DOMAIN:
        definition = graph.conversion.context.operators.get(node.op_type)
        schema = None if definition is None else definition.schema
        if schema is None or not schema.inputs:
            return False
        return DType.INT8 in schema.constraint(schema.inputs[0].type_var).allowed
    if node.domain not in ONNX_DOMAINS:
        return False
    if node.op_type not in INT8_OPS:
        return node.op_type in graph.elementwise_int8_ops()
    if node.op_type == "Clip":
        bounds = []
        for position, default in ((1, float("-inf")), (2, float("inf"))):
            value = (
                graph.constant(node.inputs[position]) if len(node.inputs) > position and node.inputs[position] else None
            )
            bounds.append(default if value is None else float(value.reshape(-1)[0]))
        return tuple(bounds) in INT8_CLIP_BOUNDS
    return True


def _dequantizes(graph: _Nodes, node: OnnxNode) -> list[OnnxNode]:
    found = (graph.writer_of(name, "DequantizeLinear") for name in node.inputs if name)
    return [dequantize for dequantize in found if dequantize is not None]


def _activation_after(graph: _Nodes, node: OnnxNode) -> OnnxNode | None:
    """The Relu or Clip(0, 6) that alone reads `node`'s output, if any."""
    readers = graph.readers.get(node.outputs[0], [])
    if len(readers) != 1 or node.outputs[0] in graph.outputs or node.op_type in ("Relu", "Clip"):
        return None
    after = readers[0]
    if after.domain not in ONNX_DOMAINS or after.op_type not in ("Relu", "Clip") or not _int8_capable(graph, after):
        return None
    return after


def fuse_int8_groups(
    nodes: list[OnnxNode], outputs: list[str], conversion: OnnxConversion
) -> tuple[list[OnnxNode], dict[str, Quantization]]:
    """DQ -> op -> Q groups as the op on int8 values (see the module's doc). Returns the nodes and the
    quantization of each fused op's output value."""
    graph = _Nodes(nodes, outputs, conversion)
    replaced: dict[int, OnnxNode | None] = {}
    quantized: dict[str, Quantization] = {}
    for node in nodes:
        if id(node) in replaced or len(node.outputs) != 1 or not _int8_capable(graph, node):
            continue
        allowed_constants = CONSTANT_INPUTS.get(node.op_type, frozenset())
        inputs: list[str] = []
        fusable = True
        for position, name in enumerate(node.inputs):
            if not name:
                inputs.append(name)
                continue
            if graph.constant(name) is not None:
                fusable = fusable and position in allowed_constants
                inputs.append(name)
                continue
            dequantize = graph.writer_of(name, "DequantizeLinear")
            if (
                dequantize is None
                or graph.per_tensor_int8(dequantize) is None
                or graph.constant(dequantize.inputs[0]) is not None
            ):
                fusable = False
                break
            inputs.append(dequantize.inputs[0])
        # A Relu or Clip(0, 6) between the op and its quantize (a fused activation, as the quantizer
        # annotates add + relu) runs on the int8 output, with the same parameters.
        activation = _activation_after(graph, node)
        last = activation if activation is not None else node
        quantize = graph.only_reader(last.outputs[0], "QuantizeLinear")
        if not fusable or quantize is None:
            continue
        parameters = graph.per_tensor_int8(quantize)
        if parameters is None:
            continue
        if node.op_type in EQUAL_PARAMETERS and any(
            graph.per_tensor_int8(d) != parameters for d in _dequantizes(graph, node)
        ):
            continue
        quantization = Quantization((parameters[0],), (parameters[1],))
        if activation is None:
            replaced[id(node)] = dataclasses.replace(node, inputs=tuple(inputs), outputs=quantize.outputs)
        else:
            replaced[id(node)] = dataclasses.replace(node, inputs=tuple(inputs))
            replaced[id(activation)] = dataclasses.replace(activation, outputs=quantize.outputs)
            quantized[node.outputs[0]] = quantization
        replaced[id(quantize)] = None
        quantized[quantize.outputs[0]] = quantization
    kept = [node for node in (replaced.get(id(n), n) for n in nodes) if node is not None]
    read = {name for node in kept for name in node.inputs} | set(outputs)
    kept = [
        node
        for node in kept
        if not (node.domain in ONNX_DOMAINS and node.op_type == "DequantizeLinear" and node.outputs[0] not in read)
    ]
    return kept, quantized


def set_output_quantization(
    conversion: OnnxConversion, node: OnnxNode, first_new_tensor: int, quantized: dict[str, Quantization]
) -> None:
    """The int8 tensors converting `node` created without quantization get its group's output quantization."""
    if not node.outputs or node.outputs[0] not in quantized:
        return
    quantization = quantized[node.outputs[0]]
    for index in range(first_new_tensor, len(conversion.tensors)):
        tensor = conversion.tensors[index]
        if tensor.dtype is DType.INT8 and tensor.quantization is None and tensor.data is None:
            conversion.tensors[index] = dataclasses.replace(tensor, quantization=quantization)
