# SPDX-License-Identifier: Apache-2.0
"""QDQ islands: an op that runs in float32 between DEQUANTIZEs of int8 values and QUANTIZEs back to
int8 runs on its int8 kernel instead, with TFLite's int8 arithmetic.

ONNX models quantized with onnxruntime's `quantize_static` (QDQ format) and PT2E programs keep every
op in float32 between a DequantizeLinear and a QuantizeLinear; the frontends fuse the convolutions and
matrix products into their int8 forms, but an ADD, a pool, MEAN, SOFTMAX, CONCATENATION ... stays a
float island: float32 tensors four times the size of the int8 ones, and float kernels. An op becomes
int8 here when:

- its definition takes int8 (its schema) and has an int8 output (its quantization fact is not FLOAT);
- every input that is no constant is written by a DEQUANTIZE of a per-tensor int8 value (constants
  that are not float32, such as a RESHAPE's shape or a MEAN's axes, stay as they are);
- every reader of its output is a QUANTIZE to int8 with one per-tensor quantization, and the output is
  no graph output;
- the parameters suit the op's int8 form, as its quantization fact says: SAME_AS_INPUT ops (pools,
  CONCATENATION, RESHAPE) need the inputs' and the output's parameters equal, FIXED ones (SOFTMAX,
  LOGISTIC) the fixed output parameters, OWN ones (ADD, MUL, MEAN) take any; a global average pool
  whose parameters change runs as the int8 MEAN over its rows and columns, which rescales.

The op then reads the int8 values and writes the QUANTIZE's output. This is the one graph pass that
changes arithmetic: float32 then one rounding becomes TFLite's int8 kernel, bit-exact with TFLite
Micro's, which differs from the float island by at most one step where the two round differently
(onnxruntime's own QLinearAdd and friends are a third rounding; docs/onnx.md). passes/qdq_islands_test.py
checks the bound on drawn islands.
"""

import numpy as np

from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ops.definition import QuantizationKind, output_quantization, takes_int8
from opbridge.passes.graph_edit import GraphEditor, rewrite_until_done
from opbridge.registry_context import OperatorLookup
from opbridge.transforms import Transform


def _per_tensor_int8(q: Quantization | None, dtype: DType) -> bool:
    return dtype is DType.INT8 and q is not None and not q.per_channel


def _dequantized(editor: GraphEditor, index: int) -> int | None:
    """The int8 tensor a DEQUANTIZE turns into tensor `index`, if one does (per tensor)."""
    producer = editor.producer(index)
    if producer is None or producer.op_type != "DEQUANTIZE" or producer.inputs[0] is None:
        return None
    source = editor.tensor(producer.inputs[0])
    return producer.inputs[0] if _per_tensor_int8(source.quantization, source.dtype) else None


def _quantizes(editor: GraphEditor, output: int) -> list[Node] | None:
    """The QUANTIZEs that read `output`, when they are all its readers and share one per-tensor int8
    quantization; else None."""
    readers = editor.readers(output)
    if not readers or editor.is_output(output):
        return None
    targets = [editor.tensor(r.outputs[0]) for r in readers if r.op_type == "QUANTIZE" and len(r.outputs) == 1]
    if len(targets) != len(readers) or not all(_per_tensor_int8(t.quantization, t.dtype) for t in targets):
        return None
    return readers if len({t.quantization for t in targets}) == 1 else None


def _same(a: Quantization, b: Quantization) -> bool:
    return np.float32(a.scale) == np.float32(b.scale) and a.zero_point == b.zero_point


def _as_mean(editor: GraphEditor, node: Node, operators: OperatorLookup) -> tuple[int, object] | None:
    """For a global AVERAGE_POOL_2D (one window over the whole input), the axes input and attributes of
    the MEAN over rows and columns that computes it: TFLite's int8 MEAN rescales to other parameters,
    its int8 pool cannot (a global pool whose output onnxruntime calibrated on its own)."""
    mean = operators.get("MEAN")
    attributes = node.attributes
    if node.op_type != "AVERAGE_POOL_2D" or mean is None or mean.schema is None or node.inputs[0] is None:
        return None
    _, height, width, _ = editor.tensor(node.inputs[0]).shape
    if (attributes.filter_height, attributes.filter_width) != (height, width) or editor.tensor(node.outputs[0]).shape[
        1:3
    ] != (1, 1):
        return None
    if getattr(attributes, "activation", None) is not None and attributes.activation.value != 0:
        return None
    axes = editor.add_constant(f"{node.name}/axes", np.array([1, 2], np.int32), DType.INT32)
    return axes, mean.schema.attributes_class(keep_dims=True)


def _int8_inputs(editor: GraphEditor, node: Node) -> list[int | None] | None:
    """The node's inputs with each float32 activation replaced by the int8 tensor its DEQUANTIZE reads
    (constants that are not float32 kept); None when an input is a float32 constant or an activation
    no DEQUANTIZE writes, or when no input was replaced."""
    inputs: list[int | None] = []
    for index in node.inputs:
        tensor = None if index is None else editor.tensor(index)
        if tensor is None or (tensor.is_constant and tensor.dtype is not DType.FLOAT32):
            inputs.append(index)
            continue
        source = None if tensor.is_constant else _dequantized(editor, index)
        if source is None:
            return None
        inputs.append(source)
    return inputs if inputs != node.inputs else None


def _island_once(editor: GraphEditor, operators: OperatorLookup) -> bool:
    for node in editor.nodes:
        definition = operators.get(node.op_type)
        if len(node.outputs) != 1 or editor.tensor(node.outputs[0]).dtype is not DType.FLOAT32:
            continue
        rule = output_quantization(definition)
        if not takes_int8(definition) or rule.kind is QuantizationKind.FLOAT:
            continue
        quantizes = _quantizes(editor, node.outputs[0])
        if quantizes is None:
            continue
        inputs = _int8_inputs(editor, node)
        if inputs is None:
            continue
        output_q: Quantization = editor.tensor(quantizes[0].outputs[0]).quantization  # type: ignore[assignment]
        moved = [editor.tensor(i).quantization for i, old in zip(inputs, node.inputs, strict=True) if i != old]
        if rule.kind is QuantizationKind.SAME_AS_INPUT and not all(_same(q, output_q) for q in moved):  # type: ignore[arg-type]
            mean = _as_mean(editor, node, operators)
            if mean is None:
                continue
            inputs, node.op_type, node.attributes = [inputs[0], mean[0]], "MEAN", mean[1]
        if rule.kind is QuantizationKind.FIXED and not _same(output_q, Quantization((rule.scale,), (rule.zero_point,))):  # type: ignore[arg-type]
            continue
        node.inputs = inputs
        node.outputs = [quantizes[0].outputs[0]]
        for quantize in quantizes:
            editor.remove_node(quantize)
        for other in quantizes[1:]:
            editor.move_readers(other.outputs[0], node.outputs[0])
        return True
    return False


def remaining_islands_note(graph: Graph) -> str:
    """The conversion summary's line on the float32 ops still reading a DEQUANTIZE's output (their int8
    form cannot take their parameters, or they have no int8 form), or "" when there are none."""
    dequantized = {node.outputs[0] for node in graph.nodes if node.op_type == "DEQUANTIZE"}
    islands = [
        f"{node.describe()}"
        for node in graph.nodes
        if node.op_type not in ("QUANTIZE", "DEQUANTIZE")
        and dequantized.intersection(i for i in node.inputs if i is not None)
        and any(graph.tensor(o).dtype is DType.FLOAT32 for o in node.outputs)
        and any(r.op_type == "QUANTIZE" for o in node.outputs for r in graph.consumers(o))
    ]
    if not islands:
        return ""
    return (
        f"float32 islands: {len(islands)} node(s) run in float32 between a dequantize and a quantize, as no "
        f"int8 kernel takes their parameters: {', '.join(islands[:6])}{', ...' if len(islands) > 6 else ''}"
    )


def run_qdq_islands(graph: Graph, operators: OperatorLookup) -> Graph:
    """The graph with its float islands on int8 kernels (see the module docstring); `graph` itself is
    not changed."""
    return rewrite_until_done(graph, lambda editor: _island_once(editor, operators), operators)


class QdqIslands(Transform):
    """`transforms: [{name: qdq_islands}]` (one of the built-in graph passes)."""

    NAME = "qdq_islands"
    OPTIONS = None

    def apply(self, graph: Graph) -> Graph:
        assert self.context is not None, "apply_transform sets the context"
        return run_qdq_islands(graph, self.context.operators)
