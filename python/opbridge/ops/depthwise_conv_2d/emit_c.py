# SPDX-License-Identifier: Apache-2.0
"""DEPTHWISE_CONV_2D -> opbridge_depthwise_conv_2d_s8_folded or opbridge_depthwise_conv_2d_s8
(shared with CONV_2D's emitter, which chooses), run row by row in place when the planner put the
output over the input (docs/memory_planner.md, "In place")."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import render_statement
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import axis_padding, window
from opbridge.ops.conv_2d.emit_c import emit_convolution


def runs_in_place(graph: Graph, node: Node) -> bool:
    """int8, stride 1 and the output the input's shape (depth multiplier 1, SAME padding): output
    row y may overwrite input row y once the rows its windows still need are copied aside
    (TinyEngine's in-place depthwise, by rows). The planner decides whether it does (the input
    must die here and not be the caller's)."""
    source, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    attributes = node.attributes
    if source.dtype is not DType.INT8 or output.dtype is not DType.INT8 or source.is_constant:
        return False
    if not graph.tensor(node.inputs[1]).is_constant:  # a filter computed at run time could be the target
        return False
    if attributes.stride_height != 1 or attributes.stride_width != 1:
        return False
    return len(source.shape) == 4 and source.shape[0] == 1 and tuple(source.shape) == tuple(output.shape)


def _window_rows(graph: Graph, node: Node) -> int:
    """Input rows one output row's windows read (at most the input's height)."""
    taps, height = graph.tensor(node.inputs[1]).shape[1], graph.tensor(node.inputs[0]).shape[1]
    return min((taps - 1) * node.attributes.dilation_height + 1, height)


def in_place_scratch_bytes(graph: Graph, node: Node) -> int:
    """The input rows an in-place run keeps aside (NodeMemory.in_place_scratch)."""
    if not runs_in_place(graph, node):
        return 0
    _, _, width, channels = graph.tensor(node.inputs[0]).shape
    return _window_rows(graph, node) * width * channels


class _RowContext(EmitContext):
    """The node's emitter, seeing the window of saved input rows as its input and one output row as its output."""

    def __init__(self, ctx: EmitContext, node: Node) -> None:
        super().__init__(ctx.prefix, ctx.graph, ctx.plan)
        self.rows = {node.inputs[0]: "window", node.outputs[0]: "row_output"}

    def pointer(self, index: int) -> str:
        return self.rows.get(index) or super().pointer(index)


def emit_depthwise_conv_2d(ctx: EmitContext, node: Node) -> NodeCode:
    if not ctx.shares_buffer(node.inputs[0], node.outputs[0]):
        return emit_convolution(ctx, node, depthwise=True)
    return _emit_in_place(ctx, node)


def _emit_in_place(ctx: EmitContext, node: Node) -> NodeCode:
    """Output row y overwrites input row y. Before that, the input rows its windows read are in the
    scratch (`window`), which slides down one row per output row: rows above y are copies kept
    from earlier steps, the rest are read from the buffer before they are overwritten."""
    graph = ctx.graph
    code = emit_convolution(_RowContext(ctx, node), node, depthwise=True)
    call = code.call
    assert call is not None and call.params is not None and not code.statements, (
        f"{node.describe()}: the depthwise emitter is one kernel call"
    )
    assert call.params.has_fields("input", "output", "padding_height"), "the rows below set these fields"
    code.definitions.append(call.params)
    code.call = None  # the rows below call it on a copy of its parameters
    source = graph.tensor(node.inputs[0])
    _, height, width, channels = source.shape
    attributes = node.attributes
    taps = graph.tensor(node.inputs[1]).shape[1]
    before = window(axis_padding(attributes, 1), height, taps, 1, attributes.dilation_height).padding_before
    span = (taps - 1) * attributes.dilation_height + 1
    row = width * channels
    code.includes.append("string.h")
    code.statements = [
        "{ /* In place: each output row overwrites its input row; the rows its windows read wait in the scratch. */",
        f"  int8_t *rows = {ctx.pointer(node.outputs[0])};",
        f"  int8_t *window = {ctx.scratch_pointer(node, 'int8_t')};",
        f"  {call.params.c_type} params = {call.params.symbol};",
        "  int32_t low = 0; /* the window holds input rows [low, high) */",
        "  int32_t high = 0;",
        "  params.output.height = 1;",
        f"  for (int32_t y = 0; y < {height}; ++y) {{",
        f"    const int32_t first = y - {before}; /* the input row of the windows' first tap */",
        "    const int32_t want_low = first < 0 ? 0 : first;",
        f"    const int32_t want_high = first + {span} < {height} ? first + {span} : {height};",
        "    if (want_low > low) {",
        f"      memmove(window, window + (size_t)(want_low - low) * {row}u, (size_t)(high - want_low) * {row}u);",
        "      low = want_low;",
        "    }",
        "    for (; high < want_high; ++high) {",
        f"      memcpy(window + (size_t)(high - low) * {row}u, rows + (size_t)high * {row}u, {row}u);",
        "    }",
        "    params.input.height = high - low;",
        "    params.padding_height = low - first;",
        f"    int8_t *row_output = rows + (size_t)y * {row}u;",
        "    " + render_statement(call, "&params"),
        "    if (status != 0) {",
        "      return status;",
        "    }",
        "  }",
        "}",
    ]
    return code
