# SPDX-License-Identifier: Apache-2.0
"""Reshapes: views of views become one view, views that change nothing go, and transposes that only
move axes of size 1 (which leave the bytes in place) become views.

A view is an op whose output is its input's bytes under another shape (its definition's NodeMemory
says aliases_input: RESHAPE, SQUEEZE, EXPAND_DIMS). Three rewrites, repeated until nothing changes:

- a TRANSPOSE whose permutation keeps the order of the axes longer than 1 becomes a RESHAPE
  ((1, 1, 1, 64) -> (1, 64, 1, 1) after a global pool in a PyTorch model);
- a view read only by another view: the second becomes one RESHAPE of the first one's input;
- a view whose output shape is its input's: its readers read its input (unless it writes a graph
  output, or reads a graph input and writes one); so does a QUANTIZE from int8 to int8 with the same
  parameters on both sides (it rescales by exactly 1).

A QUANTIZE that does change the parameters is not folded into the op before it: that op rounds
once to its own output parameters and the QUANTIZE rounds again, which no single rescaling of the
op's accumulator reproduces bit for bit. (opbridge's PT2E quantizer gives such pairs one set of
parameters, as TFLite's converter does, so its programs have none.)
"""

import numpy as np

from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import aliases_input
from opbridge.passes.graph_edit import GraphEditor, rewrite_until_done
from opbridge.passes.transposes import permutation
from opbridge.registry_context import OperatorLookup
from opbridge.transforms import Transform


def _is_view(node: Node | None, operators: OperatorLookup) -> bool:
    return node is not None and len(node.outputs) == 1 and aliases_input(operators.get(node.op_type))


def _is_identity_requantize(editor: GraphEditor, node: Node) -> bool:
    """A QUANTIZE from int8 to int8 (or int16 to int16) with one per-tensor quantization on both sides:
    it rescales by exactly 1 (TFLite's multiplier of 1.0) and saturates nothing."""
    if node.op_type != "QUANTIZE" or node.inputs[0] is None or editor.is_output(node.outputs[0]):
        return False
    source, result = editor.tensor(node.inputs[0]), editor.tensor(node.outputs[0])
    q = source.quantization
    return (
        source.dtype is result.dtype
        and source.dtype in (DType.INT8, DType.INT16)
        and q is not None
        and not q.per_channel
        and q == result.quantization
    )


def moves_only_unit_axes(shape: tuple[int, ...], perm: tuple[int, ...]) -> bool:
    """Whether transposing `shape` by `perm` keeps its bytes in order (only axes of size 1 move)."""
    moved = [axis for axis in perm if shape[axis] != 1]
    return moved == sorted(moved)


def _reshape(editor: GraphEditor, node: Node, source: int) -> None:
    """`node` becomes a RESHAPE of `source` to its output's shape."""
    shape = editor.tensor(node.outputs[0]).shape
    shape_input = editor.add_constant(f"{node.name}/shape", np.array(shape, np.int32), DType.INT32)
    node.op_type, node.inputs, node.attributes = "RESHAPE", [source, shape_input], None
    editor.refresh()


def _rewrite_once(editor: GraphEditor, operators: OperatorLookup) -> bool:
    for node in list(editor.nodes):
        if not node.outputs or (not editor.readers(node.outputs[0]) and not editor.is_output(node.outputs[0])):
            continue  # dead: dropped at the end
        perm = permutation(editor, node)
        if perm is not None and node.inputs[0] is not None:
            if moves_only_unit_axes(editor.tensor(node.inputs[0]).shape, perm) and operators.get("RESHAPE"):
                _reshape(editor, node, node.inputs[0])
                return True
            continue
        if _is_identity_requantize(editor, node):
            editor.move_readers(node.outputs[0], node.inputs[0])  # type: ignore[arg-type]
            return True
        if not _is_view(node, operators) or node.inputs[0] is None:
            continue
        source = node.inputs[0]
        before = editor.producer(source)
        if _is_view(before, operators) and editor.read_only_by(source, node):
            _reshape(editor, node, before.inputs[0])  # type: ignore[union-attr,arg-type]
            return True
        output = node.outputs[0]
        if editor.tensor(source).shape == editor.tensor(output).shape and not editor.is_output(output):
            editor.move_readers(output, source)
            return True
    return False


def remove_reshapes(graph: Graph, operators: OperatorLookup) -> Graph:
    """The graph with views merged and identities removed (see the module docstring); `graph` itself is
    not changed."""
    return rewrite_until_done(graph, lambda editor: _rewrite_once(editor, operators), operators)


class RemoveReshapes(Transform):
    """`transforms: [{name: remove_reshapes}]` (one of the built-in graph passes)."""

    NAME = "remove_reshapes"
    OPTIONS = None

    def apply(self, graph: Graph) -> Graph:
        assert self.context is not None, "apply_transform sets the context"
        return remove_reshapes(graph, self.context.operators)
