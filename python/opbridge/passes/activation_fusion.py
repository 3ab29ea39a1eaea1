# SPDX-License-Identifier: Apache-2.0
"""Activation fusion: a RELU or RELU6 right after an op that clamps its own output (its definition
says fuses_activation: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB, MUL) becomes that op's
fused activation, as TFLite's converter writes it, so no pass over the whole tensor is left for it.

Folded bit for bit, and only then:

- float32: always (a fused activation is the same clamp, std::min(std::max(x, low), high));
- int8: when the activation's input and output have one per-tensor quantization. The activation then
  rescales by exactly 1 and clamps at the zero point (and at 6's step), which is the clamp
  CalculateActivationRangeQuantized gives the producer's output. A RELU that requantizes (its own
  scale or zero point) rounds twice, which no fused activation does: it stays.

The producer's output must be read by the activation alone and be no graph output; the producer
then writes the activation's output tensor.

Not fused: clamps written as MAXIMUM and MINIMUM with constant bounds (ONNX's Clip(-1, 1), torch's
hardtanh). TFLite Micro's float32 MAXIMUM(x, 0) gives 0 for a NaN and +0.0 for -0.0, where the fused
clamp passes both through, so the fusion would not be bit for bit; opbridge has no RELU_N1_TO_1
operator of its own to fuse. (int8 Clip(0, 6) and Relu of ONNX QDQ models are fused by the ONNX
frontend, frontends/onnx/qdq_fusion.py.)
"""

import dataclasses

from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import Activation
from opbridge.passes.graph_edit import GraphEditor, rewrite_until_done
from opbridge.registry_context import OperatorLookup
from opbridge.transforms import Transform

# The standalone activation ops, and the fused activation each one is.
ACTIVATIONS = {"RELU": Activation.RELU, "RELU6": Activation.RELU6}


def _fusable(editor: GraphEditor, producer: Node, activation: Node, operators: OperatorLookup) -> bool:
    definition = operators.get(producer.op_type)
    if definition is None or not definition.fuses_activation or len(producer.outputs) != 1:
        return False
    if getattr(producer.attributes, "activation", None) is not Activation.NONE:
        return False
    between = activation.inputs[0]
    if between is None or not editor.read_only_by(between, activation):
        return False
    source, result = editor.tensor(between), editor.tensor(activation.outputs[0])
    if source.dtype is not result.dtype:
        return False
    if source.dtype is DType.FLOAT32:
        return True
    q = source.quantization
    return source.dtype is DType.INT8 and q is not None and not q.per_channel and q == result.quantization


def _fuse_once(editor: GraphEditor, operators: OperatorLookup) -> bool:
    for node in editor.nodes:
        fused = ACTIVATIONS.get(node.op_type)
        producer = editor.producer(node.inputs[0]) if fused is not None and node.inputs else None
        if fused is None or producer is None or not _fusable(editor, producer, node, operators):
            continue
        producer.attributes = dataclasses.replace(producer.attributes, activation=fused)
        producer.outputs = [node.outputs[0]]
        editor.remove_node(node)
        return True
    return False


def fuse_activations(graph: Graph, operators: OperatorLookup) -> Graph:
    """The graph with each fusable activation moved into its producer (see the module docstring);
    `graph` itself is not changed."""
    return rewrite_until_done(graph, lambda editor: _fuse_once(editor, operators), operators)


class FuseActivations(Transform):
    """`transforms: [{name: fuse_activations}]` (one of the built-in graph passes)."""

    NAME = "fuse_activations"
    OPTIONS = None

    def apply(self, graph: Graph) -> Graph:
        assert self.context is not None, "apply_transform sets the context"
        return fuse_activations(graph, self.context.operators)
