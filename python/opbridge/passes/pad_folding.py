# SPDX-License-Identifier: Apache-2.0
"""Pad folding: a PAD of the rows and columns before a convolution becomes the convolution's own
explicit padding, so the padded copy of the input is never written.

PyTorch and ONNX pad a strided convolution on both sides (padding=1 on a 3x3, stride 2), where
TFLite's SAME pads only after; the frontends write that as PAD -> CONV_2D (VALID). The convolution
kernels read positions outside the input as the input's zero point (int8: they add nothing) or skip
them (float32), so a PAD whose value is exactly that folds in bit for bit:

- the PAD pads only axes 1 and 2 (NHWC rows and columns), by constant amounts;
- int8: its value (PADV2's, or the output's zero point) is the input's zero point, and its input and
  output have one quantization; float32: its value is +0.0 and the filter is constant and finite
  (0 * w adds nothing to the sum then);
- every reader of the padded tensor is an op with `explicit_padding` (CONV_2D, DEPTHWISE_CONV_2D)
  that reads it as its input 0, and the padded tensor is no graph output.

The readers then read the PAD's input, with the PAD's amounts added to their own padding.
"""

import dataclasses

import numpy as np

from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import Padding, spatial_windows
from opbridge.passes.graph_edit import GraphEditor, rewrite_until_done
from opbridge.registry_context import OperatorLookup
from opbridge.transforms import Transform

PAD_OPS = ("PAD", "PADV2")


def _spatial_amounts(editor: GraphEditor, node: Node) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) of a PAD of NHWC rows and columns only, else None."""
    paddings = editor.constant_value(node.inputs[1] if len(node.inputs) > 1 else None)
    if paddings is None or len(editor.tensor(node.outputs[0]).shape) != 4:
        return None
    amounts = np.asarray(paddings, np.int64).reshape(-1, 2)
    if amounts.shape != (4, 2) or amounts.min() < 0 or amounts[0].any() or amounts[3].any():
        return None
    return int(amounts[1, 0]), int(amounts[1, 1]), int(amounts[2, 0]), int(amounts[2, 1])


def _pads_with_nothing(editor: GraphEditor, node: Node) -> bool:
    """Whether the PAD's value is what the convolution kernels read outside the input."""
    source, padded = editor.tensor(node.inputs[0]), editor.tensor(node.outputs[0])  # type: ignore[arg-type]
    given = editor.constant_value(node.inputs[2]) if len(node.inputs) > 2 and node.inputs[2] is not None else None
    if len(node.inputs) > 2 and node.inputs[2] is not None and given is None:
        return False  # a value computed at run time
    if source.dtype is DType.INT8:
        q, out_q = source.quantization, padded.quantization
        if q is None or out_q is None or q != out_q or q.per_channel:
            return False
        value = out_q.zero_point if given is None else int(np.asarray(given).ravel()[0])
        return value == q.zero_point
    if source.dtype is DType.FLOAT32:
        value = np.float32(0.0) if given is None else np.float32(np.asarray(given).ravel()[0])
        return bool(value == 0.0 and not np.signbit(value))
    return False


def _takes_padding(editor: GraphEditor, reader: Node, padded: int) -> bool:
    attributes = reader.attributes
    if not hasattr(attributes, "explicit_padding") or reader.inputs[0] != padded or reader.inputs[1:].count(padded):
        return False
    if editor.tensor(padded).dtype is DType.FLOAT32:
        weights = editor.constant_value(reader.inputs[1])
        return weights is not None and bool(np.isfinite(weights).all())
    return True


def _own_amounts(editor: GraphEditor, reader: Node) -> tuple[int, int, int, int]:
    """The reader's padding on its current input, as (top, bottom, left, right) amounts."""
    _, height, width, _ = editor.tensor(reader.inputs[0]).shape  # type: ignore[arg-type]
    _, filter_height, filter_width, _ = editor.tensor(reader.inputs[1]).shape  # type: ignore[arg-type]
    a = reader.attributes
    rows, cols = spatial_windows(a, height, width, filter_height, filter_width)
    amounts = []
    for along, size, taps, stride, dilation in (
        (rows, height, filter_height, a.stride_height, a.dilation_height),
        (cols, width, filter_width, a.stride_width, a.dilation_width),
    ):
        reach = (along.output_size - 1) * stride + (taps - 1) * dilation + 1  # positions the windows span
        amounts += [along.padding_before, max(0, reach - size - along.padding_before)]
    return amounts[0], amounts[1], amounts[2], amounts[3]


def _fold_once(editor: GraphEditor) -> bool:
    for node in editor.nodes:
        if node.op_type not in PAD_OPS or node.inputs[0] is None:
            continue
        padded = node.outputs[0]
        readers = editor.readers(padded)
        amounts = _spatial_amounts(editor, node)
        if (
            amounts is None
            or not readers
            or editor.is_output(padded)
            or not _pads_with_nothing(editor, node)
            or not all(_takes_padding(editor, reader, padded) for reader in readers)
        ):
            continue
        for reader in readers:
            own = _own_amounts(editor, reader)
            total = tuple(pad + extra for pad, extra in zip(amounts, own, strict=True))
            reader.attributes = dataclasses.replace(reader.attributes, padding=Padding.VALID, explicit_padding=total)
            reader.inputs = [node.inputs[0], *reader.inputs[1:]]
        editor.refresh()
        return True
    return False


def fold_pads(graph: Graph, operators: OperatorLookup | None = None) -> Graph:
    """The graph with foldable PADs folded into their convolutions (see the module docstring); `graph`
    itself is not changed."""
    return rewrite_until_done(graph, _fold_once, operators)


class FoldPads(Transform):
    """`transforms: [{name: fold_pads}]` (one of the built-in graph passes)."""

    NAME = "fold_pads"
    OPTIONS = None

    def apply(self, graph: Graph) -> Graph:
        return fold_pads(graph, self.context.operators if self.context is not None else None)
