# SPDX-License-Identifier: Apache-2.0
"""Layout: moves TRANSPOSE nodes down through element-wise ops and removes those that undo each other.

The ONNX and PyTorch frontends wrap each NHWC convolution or pool in transposes (NCHW -> NHWC before,
NHWC -> NCHW after), so a model's element-wise ops (a residual ADD, the RELU after it) run in NCHW
between them. Three rewrites, repeated until nothing changes, leave the model NHWC from end to end:

- push down: an element-wise op (its definition's layout is Layout.ELEMENTWISE: RELU, ADD, a plugin's
  op that says so; or ELEMENTWISE_PER_TENSOR, QUANTIZE and DEQUANTIZE, on per-tensor quantization)
  whose every activation input is a TRANSPOSE by one permutation p, of inputs of one
  shape, reads the transposes' inputs instead, and one TRANSPOSE by p after it writes what it wrote.
  An activation input that is no such transpose takes part when another reader already transposes
  it by the inverse of p (a residual ADD reads a block's input in NCHW, its convolution in NHWC); a
  constant operand is permuted to match (one of a single value is kept as it is). Done only when it
  leaves no more transposes than before (at least one of the input transposes has no other reader)
  and none wider (not through a DEQUANTIZE: int8 in, float32 out).
- cancel: readers of TRANSPOSE(q) of TRANSPOSE(p), where q undoes p, read the first one's input;
- merge: TRANSPOSE(q) of TRANSPOSE(p) read by nobody else becomes one TRANSPOSE by p then q;
- pull up: a TRANSPOSE of a DEQUANTIZE's output (read by nothing else) moves before the DEQUANTIZE,
  where it moves int8 values, not float32 ones (and may meet its inverse there).

Transposes nobody reads any more are dropped; one that writes a graph output stays, and so does one
that reads a graph input unless its reader undoes it: the model's interface keeps its layout.
"""

import numpy as np

from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import Layout, is_elementwise
from opbridge.passes.graph_edit import GraphEditor, rewrite_until_done
from opbridge.registry_context import OperatorLookup
from opbridge.transforms import Transform


def permutation(editor: GraphEditor, node: Node | None) -> tuple[int, ...] | None:
    """The permutation of a TRANSPOSE with a constant one, else None."""
    if node is None or node.op_type != "TRANSPOSE" or len(node.inputs) < 2 or node.inputs[1] is None:
        return None
    perm = editor.constant_value(node.inputs[1])
    return None if perm is None else tuple(int(p) for p in np.asarray(perm).ravel())


def _compose(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    """The one permutation equal to transposing by `first`, then by `second`."""
    return tuple(first[axis] for axis in second)


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(axis) for axis in np.argsort(perm))


def _cancel_or_merge(editor: GraphEditor, node: Node) -> bool:
    second = permutation(editor, node)
    if second is None or node.inputs[0] is None:
        return False
    before = editor.producer(node.inputs[0])
    first = permutation(editor, before)
    if before is None or first is None or len(first) != len(second):
        return False
    combined = _compose(first, second)
    if combined == tuple(range(len(combined))):
        if editor.is_output(node.outputs[0]) or not editor.readers(node.outputs[0]):
            return False  # a graph output keeps its writer; an unread one is dropped at the end
        editor.move_readers(node.outputs[0], before.inputs[0])  # type: ignore[arg-type]
        return True
    if not editor.read_only_by(before.outputs[0], node):
        return False
    perm = editor.add_constant(f"{node.name}/perm", np.array(combined, np.int32), DType.INT32)
    node.inputs = [before.inputs[0], perm]
    editor.refresh()
    return True


def _elementwise_here(editor: GraphEditor, node: Node, operators: OperatorLookup) -> bool:
    """Whether `node` computes element by element: its op always does, or does while (as here) none of
    its tensors is quantized per channel."""
    definition = operators.get(node.op_type)
    if is_elementwise(definition):
        return True
    if definition is None or definition.layout is not Layout.ELEMENTWISE_PER_TENSOR:
        return False
    tensors = [editor.tensor(i) for i in (*node.inputs, *node.outputs) if i is not None]
    return not any(t.quantization is not None and t.quantization.per_channel for t in tensors)


def _transposed_twin(editor: GraphEditor, index: int, perm: tuple[int, ...]) -> int | None:
    """The output of a TRANSPOSE by `perm` of tensor `index` already in the graph, if any."""
    for reader in editor.readers(index):
        if reader.inputs[0] == index and permutation(editor, reader) == perm:
            return reader.outputs[0]
    return None


def _push_down(editor: GraphEditor, node: Node, operators: OperatorLookup) -> bool:
    """Moves the transposes before element-wise `node` to after it (see the module docstring)."""
    if len(node.outputs) != 1 or not _elementwise_here(editor, node, operators):
        return False
    output = node.outputs[0]
    activations = editor.activations(node)
    transposes = [editor.producer(i) for i in activations]
    perms = {permutation(editor, t) for t in transposes} - {None}
    if len(perms) != 1:
        return False
    (perm,) = perms
    if len(perm) != len(editor.tensor(output).shape):
        return False
    if editor.tensor(output).dtype.itemsize > min(editor.tensor(i).dtype.itemsize for i in activations):
        return False  # a DEQUANTIZE: the transpose would move 4 bytes per value where it moved 1
    inverse = _inverse(perm)
    # Each activation untransposed: a transpose's input, or (a value read as it is) the value's
    # transpose by the inverse that some other reader already has.
    sources = [
        t.inputs[0] if permutation(editor, t) == perm else _transposed_twin(editor, i, inverse)  # type: ignore[union-attr]
        for i, t in zip(activations, transposes, strict=True)
    ]
    shapes = {editor.tensor(s).shape for s in sources if s is not None}
    if None in sources or len(shapes) != 1:
        return False
    if not any(t is not None and editor.read_only_by(t.outputs[0], node) for t in transposes):
        return False  # the input transposes stay for their other readers: one more transpose, not one fewer
    inputs: list[int | None] = []
    for i in node.inputs:
        value = editor.constant_value(i)
        if i is None or value is None:
            inputs.append(i if i is None else sources[activations.index(i)])
        elif value.size == 1:
            inputs.append(i)
        elif value.ndim == len(perm):
            constant = editor.tensor(i)
            permuted = np.ascontiguousarray(np.transpose(value, inverse))
            inputs.append(
                editor.add_tensor(constant, name=f"{constant.name}/permuted", data=permuted, shape=permuted.shape)
            )
        else:
            return False  # broadcast from fewer axes: left where it is
    (shape,) = shapes
    result = editor.tensor(output)
    untransposed = editor.add_tensor(result, name=f"{result.name}/untransposed", shape=shape)
    node.inputs = inputs
    node.outputs = [untransposed]
    perm_index = editor.add_constant(f"{result.name}/perm", np.array(perm, np.int32), DType.INT32)
    editor.add_node("TRANSPOSE", [untransposed, perm_index], [output], f"{node.name}/transpose")
    return True


def _pull_up(editor: GraphEditor, node: Node, operators: OperatorLookup) -> bool:
    """A TRANSPOSE of what a widening element-wise op (DEQUANTIZE: int8 in, float32 out) alone writes
    moves before that op, so that it moves the narrow values."""
    perm = permutation(editor, node)
    before = editor.producer(node.inputs[0]) if perm is not None else None
    if before is None or len(before.outputs) != 1 or not editor.read_only_by(before.outputs[0], node):
        return False
    activations = editor.activations(before)
    if len(activations) != 1 or not _elementwise_here(editor, before, operators):
        return False
    (source,) = activations
    if editor.tensor(source).dtype.itemsize >= editor.tensor(before.outputs[0]).dtype.itemsize:
        return False
    narrow = editor.tensor(source)
    shape = tuple(narrow.shape[axis] for axis in perm)  # type: ignore[union-attr]
    transposed = editor.add_tensor(narrow, name=f"{narrow.name}/transposed", shape=shape)
    output = node.outputs[0]
    node.inputs = [source, *node.inputs[1:]]
    node.outputs = [transposed]
    before.inputs = [transposed if i == source else i for i in before.inputs]
    before.outputs = [output]
    editor.refresh()
    return True


def _rewrite_once(editor: GraphEditor, operators: OperatorLookup | None) -> bool:
    for node in list(editor.nodes):
        if _cancel_or_merge(editor, node):
            return True
        if operators is not None and (_push_down(editor, node, operators) or _pull_up(editor, node, operators)):
            return True
    return False


def channels_last_inputs(graph: Graph) -> Graph:
    """The graph with each 3-D and 4-D input taken channels last (NWC, NHWC) and transposed to the
    model's channels-first layout by a TRANSPOSE (which the layout pass cancels against the model's
    own transpose into NHWC)."""
    editor = GraphEditor(graph)
    for position, index in enumerate(graph.inputs):
        tensor = editor.tensor(index)
        rank = len(tensor.shape)
        if rank not in (3, 4):
            continue
        to_last = (0, *range(2, rank), 1)
        shape = tuple(tensor.shape[axis] for axis in to_last)
        channels_last = editor.add_tensor(tensor, name=f"{tensor.name}/channels_last", shape=shape)
        perm = editor.add_constant(
            f"{tensor.name}/to_channels_first", np.array(_inverse(to_last), np.int32), DType.INT32
        )
        editor.add_node("TRANSPOSE", [channels_last, perm], [index], f"{tensor.name}/to_channels_first")
        editor.inputs[position] = channels_last
    return editor.finish()


def cancel_transposes(graph: Graph, operators: OperatorLookup | None = None) -> Graph:
    """The graph with transposes moved down and those that undo each other removed (see the module
    docstring); `graph` itself is not changed. `operators` says which ops are element-wise; without it
    only adjacent transposes cancel or merge."""
    return rewrite_until_done(graph, lambda editor: _rewrite_once(editor, operators), operators)


class CancelTransposes(Transform):
    """`transforms: [{name: cancel_transposes}]`: the layout pass (one of the built-in graph passes)."""

    NAME = "cancel_transposes"
    OPTIONS = None

    def apply(self, graph: Graph) -> Graph:
        return cancel_transposes(graph, self.context.operators if self.context is not None else None)
