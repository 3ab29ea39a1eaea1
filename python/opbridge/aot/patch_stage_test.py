# SPDX-License-Identifier: Apache-2.0
"""Patch stages on drawn chains of int8 convolutions: the tiles' windows are those a brute-force walk
over every tap finds, and the tiled C (host gcc, portable kernels) equals the untiled reference."""

import pathlib
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.single_op import KERNELS, WORKSPACE_ROOT, GraphBuilder, run_golden_program

from opbridge.analysis.instruction_costs import InstructionCosts, Line, layer_prices
from opbridge.aot.compile import plan_and_emit
from opbridge.aot.definition_registration import as_registry_context
from opbridge.aot.patch_stage import (
    PATCH_STAGE,
    InstructionOverhead,
    PatchStage,
    apply_patch_stage,
    axis_window,
    choose_patch_stage,
    operator_macs,
    plan_tiles,
    stage_chain,
)
from opbridge.aot.resolve import ResolvedGraph, resolve_operators
from opbridge.backends.c.golden import golden_test_source
from opbridge.backends.c.memory_plan import arena_lower_bound
from opbridge.errors import ConfigError
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ir.attribute_types import window
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes

REGISTRY = build_builtin_registry()
CONTEXT = as_registry_context(REGISTRY)


@st.composite
def chains(draw: st.DrawFn, max_layers: int = 4) -> Graph:
    """A chain of int8 CONV_2D / DEPTHWISE_CONV_2D layers with drawn windows, strides, dilations and paddings."""
    builder = GraphBuilder()
    height, width, channels = draw(st.integers(3, 14)), draw(st.integers(3, 14)), draw(st.integers(1, 5))
    current = builder.tensor("input", DType.INT8, (1, height, width, channels), draw(strategies.per_tensor()))
    input_index = current
    input_scale = builder.tensors[current].quantization.scales[0]
    nodes = []
    for layer in range(draw(st.integers(1, max_layers))):
        depthwise = draw(st.booleans())
        out_channels = channels * draw(st.integers(1, 2)) if depthwise else draw(st.integers(1, 6))
        taps = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        fields = {
            "padding": draw(strategies.PADDINGS),
            "stride_height": draw(st.integers(1, 2)),
            "stride_width": draw(st.integers(1, 2)),
            "dilation_height": draw(st.integers(1, 2)),
            "dilation_width": draw(st.integers(1, 2)),
            "activation": draw(strategies.ACTIVATIONS),
        }
        rows = window(fields["padding"], height, taps[0], fields["stride_height"], fields["dilation_height"])
        cols = window(fields["padding"], width, taps[1], fields["stride_width"], fields["dilation_width"])
        assume(rows.output_size > 0 and cols.output_size > 0)
        filter_shape = (1, *taps, out_channels) if depthwise else (out_channels, *taps, channels)
        filter_q = draw(strategies.symmetric_filter(out_channels, axis=3 if depthwise else 0))
        bias_scales = tuple(input_scale * s for s in filter_q.scales)
        bias_q = Quantization(bias_scales, (0,) * len(bias_scales), 0 if len(bias_scales) > 1 else None)
        weights = builder.tensor(
            f"filter{layer}", DType.INT8, filter_shape, filter_q, strategies.int8_array(draw, filter_shape)
        )
        bias = builder.tensor(
            f"bias{layer}", DType.INT32, (out_channels,), bias_q, strategies.bias_array(draw, out_channels)
        )
        output_q = draw(strategies.per_tensor(0.01, 2.0))
        height, width, channels = rows.output_size, cols.output_size, out_channels
        output = builder.tensor(f"act{layer}", DType.INT8, (1, height, width, channels), output_q)
        attributes = (
            DepthwiseConv2DAttributes(depth_multiplier=out_channels // builder.tensors[current].shape[3], **fields)
            if depthwise
            else Conv2DAttributes(**fields)
        )
        op_type = "DEPTHWISE_CONV_2D" if depthwise else "CONV_2D"
        nodes.append(Node(layer, f"layer{layer}", op_type, [current, weights, bias], [output], attributes))
        current, input_scale = output, output_q.scales[0]
    return Graph("chain", builder.tensors, nodes, [input_index], [current])


def brute_force_window(graph: Graph, node: Node, axis: int, wanted: tuple[int, int]) -> tuple[int, int] | None:
    """The input rows (axis 1) or columns (axis 2) inside the input that outputs `wanted` read, tap by tap."""
    along = axis_window(graph, node, axis)
    read = {o * along.stride - along.padding + t * along.dilation for o in range(*wanted) for t in range(along.taps)}
    inside = [i for i in read if 0 <= i < along.size]
    return (min(inside), max(inside) + 1) if inside else None


def grids(height: int, width: int, most: int) -> st.SearchStrategy[tuple[int, int]]:
    """Grids of rows x columns tiles (at least two tiles, at most `most` a side) over a height x width
    stage output: square, row strips, column strips and other rectangles."""
    return st.tuples(st.integers(1, min(height, most)), st.integers(1, min(width, most))).filter(
        lambda grid: grid[0] * grid[1] >= 2
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_tiles_cover_the_output_and_read_the_windows_they_need(data: st.DataObject) -> None:
    graph = data.draw(chains())
    layers = len(graph.nodes)
    _, height, width, _ = graph.tensor(graph.nodes[-1].outputs[0]).shape
    assume(max(height, width) >= 2)
    grid = data.draw(grids(height, width, 4))
    stage = plan_tiles(graph, layers, grid)
    covered = set()
    for tile in stage.tiles:
        last = tile.layers[-1]
        cells = {
            (tile.output_y + y, tile.output_x + x) for y in range(last.output_height) for x in range(last.output_width)
        }
        assert not cells & covered, "tiles overlap in the stage output"
        covered |= cells
        rows = (tile.output_y, tile.output_y + last.output_height)
        cols = (tile.output_x, tile.output_x + last.output_width)
        for position in reversed(range(layers)):
            node, layer = graph.nodes[position], tile.layers[position]
            rows_read = brute_force_window(graph, node, 1, rows)
            cols_read = brute_force_window(graph, node, 2, cols)
            assert rows_read is not None and cols_read is not None
            assert layer.input_height == rows_read[1] - rows_read[0]
            assert layer.input_width == cols_read[1] - cols_read[0]
            # The tile's kernel starts its first window where the untiled kernel does, in image coordinates.
            for axis, wanted, read, padding in (
                (1, rows, rows_read, layer.padding_height),
                (2, cols, cols_read, layer.padding_width),
            ):
                assert padding >= 0
                along = axis_window(graph, node, axis)
                assert read[0] - padding == wanted[0] * along.stride - along.padding
            if position > 0:
                assert tile.layers[position - 1].output_height == layer.input_height
                assert tile.layers[position - 1].output_width == layer.input_width
            rows, cols = rows_read, cols_read
        assert (tile.input_y, tile.input_x) == (rows[0], cols[0])
    assert covered == {(y, x) for y in range(height) for x in range(width)}


def tiled_c_equals_reference(graph: Graph, layers: int, grid: tuple[int, int]) -> None:
    """Converts `graph` with its first `layers` nodes as a patch stage of rows x columns tiles, builds
    the module with the host gcc and checks its outputs against the reference of the whole graph."""
    resolved = resolve_operators(graph, CONTEXT, "tiled")
    layer_scratch = max(operator.scratch_bytes() for operator in resolved.operators[:layers])
    stage = plan_tiles(graph, layers, grid, layer_scratch)
    staged, staged_resolved = apply_patch_stage(graph, resolved, stage, "tiled")
    assert staged.nodes[0].op_type == PATCH_STAGE
    with tempfile.TemporaryDirectory() as scratch:
        directory = pathlib.Path(scratch)
        plan, _ = plan_and_emit(staged, staged_resolved, "tiled", directory / "module", bundle_kernels=False)
        for node in graph.nodes[: layers - 1]:  # the stage's inner activations are not in the arena
            with pytest.raises(KeyError):
                plan.offset_of(node.outputs[0])
        golden = directory / "golden.c"
        golden.write_text(golden_test_source(graph, REGISTRY, "tiled", 2, 7))
        run_golden_program(directory / "module", golden, include_dirs=[WORKSPACE_ROOT], kernel_sets=[KERNELS])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_tiled_c_equals_the_untiled_reference(data: st.DataObject) -> None:
    graph = data.draw(chains(max_layers=3))
    _, height, width, _ = graph.tensor(graph.nodes[-1].outputs[0]).shape
    assume(min(height, width) >= 2)
    layers = data.draw(st.integers(1, len(graph.nodes)))
    _, height, width, _ = graph.tensor(graph.nodes[layers - 1].outputs[0]).shape
    assume(max(height, width) >= 2)
    tiled_c_equals_reference(graph, layers, data.draw(grids(height, width, 3)))


def estimate(graph: Graph, resolved: ResolvedGraph) -> int:
    return arena_lower_bound(graph, resolved.scratch_bytes, resolved.persistent_bytes)


def wide_chain() -> Graph:
    """input 32x32x1 -> 3x3 conv to 16 channels -> 3x3 depthwise stride 2 -> RELU: the first two layers
    hold the large activations."""
    builder = GraphBuilder()
    q = Quantization((0.05,), (1,))
    x = builder.tensor("input", DType.INT8, (1, 32, 32, 1), q)
    w1 = builder.tensor("w1", DType.INT8, (16, 3, 3, 1), Quantization((0.01,), (0,)), _ones((16, 3, 3, 1)))
    a = builder.tensor("a", DType.INT8, (1, 32, 32, 16), q)
    w2 = builder.tensor("w2", DType.INT8, (1, 3, 3, 16), Quantization((0.01,), (0,)), _ones((1, 3, 3, 16)))
    b = builder.tensor("b", DType.INT8, (1, 16, 16, 16), q)
    y = builder.tensor("y", DType.INT8, (1, 16, 16, 16), q)
    nodes = [
        Node(0, "conv", "CONV_2D", [x, w1, None], [a], Conv2DAttributes()),
        Node(
            1, "dw", "DEPTHWISE_CONV_2D", [a, w2, None], [b], DepthwiseConv2DAttributes(stride_height=2, stride_width=2)
        ),
        Node(2, "relu", "RELU", [b], [y]),
    ]
    return Graph("wide", builder.tensors, nodes, [x], [y])


def _ones(shape: tuple[int, ...]) -> np.ndarray:
    return np.ones(shape, np.int8)


def test_the_chain_stops_at_the_first_layer_a_tile_cannot_run() -> None:
    graph = wide_chain()
    resolved = resolve_operators(graph, CONTEXT, "wide")
    length, why = stage_chain(graph, resolved.operators)
    assert length == 2
    assert "node 2 (RELU" in why


def test_auto_chooses_the_stage_of_smallest_arena_and_says_so() -> None:
    graph = wide_chain()
    resolved = resolve_operators(graph, CONTEXT, "wide")
    whole = estimate(graph, resolved)
    stage, note = choose_patch_stage(graph, resolved, "auto", "auto", 1.0, estimate)
    assert stage is not None
    staged, staged_resolved = apply_patch_stage(graph, resolved, stage, "wide")
    assert estimate(staged, staged_resolved) < whole // 2
    assert note.startswith("patch-based: nodes 0-1 run as")
    tiled_c_equals_reference(graph, len(stage.layers), stage.grid)


def test_max_overhead_bounds_the_recomputed_work() -> None:
    graph = wide_chain()
    resolved = resolve_operators(graph, CONTEXT, "wide")
    stage, _ = choose_patch_stage(graph, resolved, "auto", "auto", 0.05, estimate)
    assert stage is None or stage.overhead <= 0.05
    # Every stage here recomputes some overlap or saves nothing: none is taken, and the note says why.
    stage, note = choose_patch_stage(graph, resolved, "auto", "auto", 0.0, estimate)
    assert stage is None
    assert note.startswith("patch-based: no stage")


def test_max_overhead_bounds_the_estimated_instructions_where_there_is_an_estimate() -> None:
    graph = wide_chain()
    resolved = resolve_operators(graph, CONTEXT, "wide")
    by_macs, _ = choose_patch_stage(graph, resolved, "auto", "auto", 0.5, estimate)
    assert by_macs is not None and by_macs.instruction_overhead is None and by_macs.overhead <= 0.5

    # A stand-in estimate: ten times the extra MACs. The bound now applies to it, so the choice
    # recomputes a tenth as much at most, and says so.
    def tenfold(stage: PatchStage) -> float:
        return 10 * stage.overhead

    stage, note = choose_patch_stage(graph, resolved, "auto", "auto", 0.5, estimate, tenfold)
    assert stage is not None and stage.instruction_overhead == 10 * stage.overhead <= 0.5
    assert stage.overhead <= by_macs.overhead and "% instructions" in note


def test_the_instruction_estimate_prices_each_tile_as_a_node_of_its_sizes() -> None:
    graph = wide_chain()
    resolved = resolve_operators(graph, CONTEXT, "wide")
    # One line per operator: one instruction per MAC and 100 per call.
    line = Line(per_mac=1.0, per_output=0.0, per_call=100.0, nodes=1)
    costs = InstructionCosts("test", {"core": {f"{node.op_type}/int8": line for node in graph.nodes}})
    macs = operator_macs(resolved.operators)
    stage = plan_tiles(graph, 2, (2, 2), 0, macs)
    whole = sum(macs(node, None) + 100 for node in graph.nodes)
    extra = (stage.tiled_macs - stage.macs) + 100 * 2 * (4 - 1)  # the recomputed MACs, three more calls a layer
    overhead = InstructionOverhead(graph, layer_prices(graph, resolved.operators, REGISTRY, costs))(stage)
    assert overhead == pytest.approx(extra / whole)
    nothing = InstructionCosts("none", {})
    assert InstructionOverhead(graph, layer_prices(graph, resolved.operators, REGISTRY, nothing))(stage) is None


def test_a_stage_longer_than_the_chain_is_refused_with_the_reason() -> None:
    graph = wide_chain()
    resolved = resolve_operators(graph, CONTEXT, "wide")
    with pytest.raises(ConfigError, match=r"only the first 2 can run as tiles: node 2 \(RELU") as error:
        choose_patch_stage(graph, resolved, 3, "auto", 0.2, estimate)
    assert "stages: 1 .. 2" in error.value.hint


def test_too_many_tiles_are_refused() -> None:
    graph = wide_chain()
    with pytest.raises(ConfigError, match=r"patch_based\.tiles: a grid of 17x17 tiles does not fit"):
        plan_tiles(graph, 2, (17, 17))
    with pytest.raises(ConfigError, match=r"a grid of 1x1 tiles"):
        plan_tiles(graph, 2, (1, 1))


def test_a_fixed_grid_skips_the_stages_too_small_for_it() -> None:
    graph = wide_chain()  # the stage outputs are 32x32 after one layer and 16x16 after two
    resolved = resolve_operators(graph, CONTEXT, "wide")
    stage, _ = choose_patch_stage(graph, resolved, "auto", 17, 1.0, estimate)
    assert stage is not None and stage.layers == (0,) and stage.grid == (17, 17)


def test_a_layer_whose_tile_would_read_only_padding_is_skipped_by_the_automatic_choice() -> None:
    builder = GraphBuilder()
    q, filter_q = Quantization((0.05,), (1,)), Quantization((0.01,), (0,))
    x = builder.tensor("x", DType.INT8, (1, 2, 2, 1), q)
    w = builder.tensor("w", DType.INT8, (1, 2, 2, 1), filter_q, _ones((1, 2, 2, 1)))
    y = builder.tensor("y", DType.INT8, (1, 2, 2, 1), q)
    # Dilation 3 on a 2x2 image: one output's taps all fall in the padding.
    attributes = Conv2DAttributes(dilation_height=3, dilation_width=3)
    graph = Graph("dilated", builder.tensors, [Node(0, "conv", "CONV_2D", [x, w, None], [y], attributes)], [x], [y])
    resolved = resolve_operators(graph, CONTEXT, "dilated")
    stage, note = choose_patch_stage(graph, resolved, "auto", "auto", 1.0, estimate)
    assert stage is None and note.startswith("patch-based: no stage")
    with pytest.raises(ConfigError, match="read only padding"):
        choose_patch_stage(graph, resolved, 1, 2, 1.0, estimate)
