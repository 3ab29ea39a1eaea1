# SPDX-License-Identifier: Apache-2.0
"""Patch-based inference (MCUNetV2, Lin et al. 2021): the first layers of a CNN run tile by tile.

The first layers of an image model hold its largest activations. Run as a
*stage*, tile by tile over the stage's output, each tile needs only the
part of every activation its window reaches: the overlap between
neighbouring tiles is recomputed, and the whole activations never exist.
The stage becomes one step of the schedule (a PATCH_STAGE node) whose
scratch holds one tile's activations; the arena keeps the stage's input and
output only.

A tile runs each layer's own kernel on the tile's rows and columns: the
layer's parameters with the tile's sizes and with the padding the tile
sees (zero inside the image, the layer's own at its edges). Every output
element comes from the same window, the same weights and the same integer
arithmetic as untiled, so the result is bit-exact with the reference.

Settings: ConvertArgs.patch_based (docs/memory_planner.md, "Patch-based inference").
"""

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from opbridge.aot.operators import AotOperator, BuiltinAotOperator, NodeCodeOperator
from opbridge.aot.resolve import ResolvedGraph
from opbridge.backends.c.emit_context import EmitContext, NodeCode, constants_placement
from opbridge.backends.c.kernel_call import render_statement
from opbridge.backends.c.memory_plan import MemoryPlan
from opbridge.errors import ConfigError
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import axis_padding, window

PATCH_STAGE = "PATCH_STAGE"
# The automatic choice tries grids of up to 8 x 8 tiles, square or not (more tiles only add overlap).
MAX_TILES_PER_SIDE = 8
# The emitted tile table holds int16_t sizes and positions.
INT16_MAX = 32767
# Tile buffers are placed at 4-byte boundaries (the kernels read words).
TILE_ALIGNMENT = 4


def _align(value: int) -> int:
    return (value + TILE_ALIGNMENT - 1) // TILE_ALIGNMENT * TILE_ALIGNMENT


@dataclasses.dataclass(frozen=True)
class LayerTile:
    """One layer's share of one tile: its input and output rows x columns, and the padding
    before them (the layer's own at the image's top or left edge, else 0)."""

    input_height: int
    input_width: int
    output_height: int
    output_width: int
    padding_height: int
    padding_width: int


@dataclasses.dataclass(frozen=True)
class Tile:
    input_y: int  # the tile's window of the stage input: first row and column
    input_x: int
    output_y: int  # where its output goes in the stage output
    output_x: int
    layers: tuple[LayerTile, ...]


@dataclasses.dataclass(frozen=True)
class PatchStage:
    """The first `len(layers)` nodes of the schedule, run as a grid of rows x columns tiles."""

    layers: tuple[int, ...]  # node indices, 0 .. k-1
    grid: tuple[int, int]  # tiles down and across the stage's output
    tiles: tuple[Tile, ...]
    buffer_bytes: int  # one tile's layer input and output, at the two ends of this many bytes
    layer_scratch_bytes: int  # the largest scratch a layer's kernel asks for (after the buffers)
    macs: int  # multiply-accumulates of the stage's layers, untiled
    tiled_macs: int  # ... tile by tile (overlap recomputed)
    model_macs: int  # of the whole model, untiled
    # Extra instructions of the tiles as a fraction of the whole model's, by `opbridge analyze`'s fitted
    # costs (InstructionOverhead); None where a layer has no estimate.
    instruction_overhead: float | None = None

    @property
    def scratch_bytes(self) -> int:
        return self.buffer_bytes + self.layer_scratch_bytes

    @property
    def overhead(self) -> float:
        """Extra multiply-accumulates, as a fraction of the whole model's."""
        extra = self.tiled_macs - self.macs
        return extra / self.model_macs if self.model_macs else (0.0 if extra == 0 else float("inf"))

    def describe(self) -> str:
        last = self.layers[-1]
        return (
            f"patch-based: nodes 0-{last} run as {self.grid[0]}x{self.grid[1]} tiles "
            f"({self.scratch_bytes} bytes of tile buffers), +{self.tiled_macs - self.macs} MACs "
            f"(+{100 * self.overhead:.1f}% of the model's {self.model_macs})"
            + (
                ""
                if self.instruction_overhead is None
                else f", about +{100 * self.instruction_overhead:.0f}% instructions"
            )
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "layers": list(self.layers),
            "grid": list(self.grid),
            "scratch_bytes": self.scratch_bytes,
            "macs": self.macs,
            "tiled_macs": self.tiled_macs,
            "model_macs": self.model_macs,
            "overhead": round(self.overhead, 6),
            "instruction_overhead": None if self.instruction_overhead is None else round(self.instruction_overhead, 6),
        }

    @property
    def limited_overhead(self) -> float:
        """What max_overhead bounds: the estimated extra instructions, else the extra MACs."""
        return self.overhead if self.instruction_overhead is None else self.instruction_overhead


# (node, output_shape) -> the node's MACs for an output of that shape (None: its own); the stage's
# operators answer it (AotOperator.macs, from OperatorDefinition.macs for a built-in).
NodeMacs = Callable[[Node, tuple[int, ...] | None], int]


def _no_macs(node: Node, output_shape: tuple[int, ...] | None) -> int:
    return 0


def operator_macs(operators: Sequence[Any]) -> NodeMacs:
    """NodeMacs of a graph's resolved operators (one per node, in node order)."""
    return lambda node, output_shape: operators[node.index].macs(output_shape)


def stage_chain(graph: Graph, operators: Sequence[AotOperator]) -> tuple[int, str]:
    """How many leading nodes can run as one patch stage, and why the chain stops there."""
    for position, node in enumerate(graph.nodes):
        reason = _unsuited(graph, node, operators[position])
        if reason is None and position > 0:
            previous = graph.nodes[position - 1].outputs[0]
            if node.inputs[0] != previous:
                reason = f"{node.describe()} does not read the previous node's output"
        if reason is None and position > 0:
            reason = _escapes(graph, graph.nodes[position - 1].outputs[0], position)
        if reason is not None:
            return position, reason
    return len(graph.nodes), "the chain runs to the model's end"


def _unsuited(graph: Graph, node: Node, operator: AotOperator) -> str | None:
    if not isinstance(operator, BuiltinAotOperator):
        return f"{node.describe()} is emitted by a plugin class ({type(operator).__qualname__})"
    if not operator.DEFINITION.patch_tiles:
        return f"{node.describe()} does not run tile by tile (OperatorDefinition.patch_tiles)"
    source, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    if source.dtype is not DType.INT8 or output.dtype is not DType.INT8:
        return f"{node.describe()} is not int8 (tiles run the int8 kernels)"
    if any(index is not None and not graph.tensor(index).is_constant for index in node.inputs[1:]):
        return f"{node.describe()} has weights computed at run time"
    if len(source.shape) != 4 or source.shape[0] != 1 or source.is_constant:
        return f"{node.describe()} does not read one NHWC image"
    return None


def _escapes(graph: Graph, tensor: int, reader: int) -> str | None:
    """Why `tensor` (inside the stage) cannot stay inside it: read by a node other than `reader`, or a graph output."""
    if tensor in graph.outputs:
        return f"{graph.tensor(tensor).describe()} is a model output"
    for node in graph.nodes:
        if node.index != reader and tensor in node.inputs:
            return f"{graph.tensor(tensor).describe()} is also read by {node.describe()}"
    return None


def _split(size: int, parts: int) -> list[tuple[int, int]]:
    bounds = [size * part // parts for part in range(parts + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(parts)]


def plan_tiles(
    graph: Graph, layers: int, grid: tuple[int, int], layer_scratch_bytes: int = 0, macs: NodeMacs = _no_macs
) -> PatchStage:
    """The tiles of a stage of the first `layers` nodes (stage_chain says how many may) on a grid of
    rows x columns tiles over the stage's output; `macs` counts each node's multiply-accumulates,
    untiled and per tile (operator_macs: the resolved operators')."""
    nodes = graph.nodes[:layers]
    _, out_height, out_width, _ = graph.tensor(nodes[-1].outputs[0]).shape
    grid_rows, grid_cols = grid
    if not (1 <= grid_rows <= out_height and 1 <= grid_cols <= out_width and grid_rows * grid_cols >= 2):
        raise ConfigError(
            f"patch_based.tiles: a grid of {grid_rows}x{grid_cols} tiles does not fit the stage output "
            f"{graph.tensor(nodes[-1].outputs[0]).describe()}",
            hint=f"use 1 .. {out_height} rows and 1 .. {out_width} columns of tiles (at least 2 tiles), or 'auto'",
        )
    tiles, buffer_bytes, tiled_macs = [], 0, 0
    node_windows = [(axis_window(graph, node, 1), axis_window(graph, node, 2)) for node in nodes]
    layer_macs: dict[tuple[int, tuple[int, ...]], int] = {}
    for rows in _split(out_height, grid_rows):
        for cols in _split(out_width, grid_cols):
            layer_tiles: list[LayerTile] = []
            row_range, col_range = rows, cols
            for node, windows in zip(reversed(nodes), reversed(node_windows), strict=True):
                (row_range, pad_top), (col_range, pad_left) = (
                    _reach(node, along, axis, wanted)
                    for along, axis, wanted in ((windows[0], 1, row_range), (windows[1], 2, col_range))
                )
                layer_tiles.append(
                    LayerTile(
                        input_height=row_range[1] - row_range[0],
                        input_width=col_range[1] - col_range[0],
                        output_height=layer_tiles[-1].input_height if layer_tiles else rows[1] - rows[0],
                        output_width=layer_tiles[-1].input_width if layer_tiles else cols[1] - cols[0],
                        padding_height=pad_top,
                        padding_width=pad_left,
                    )
                )
            layer_tiles.reverse()
            for node, layer in zip(nodes, layer_tiles, strict=True):
                batches, _, _, channels = graph.tensor(node.outputs[0]).shape
                output_shape = (batches, layer.output_height, layer.output_width, channels)
                if (node.index, output_shape) not in layer_macs:  # the tiles of a grid mostly share sizes
                    layer_macs[node.index, output_shape] = macs(node, output_shape)
                tiled_macs += layer_macs[node.index, output_shape]
                in_channels = graph.tensor(node.inputs[0]).shape[3]
                out_channels = graph.tensor(node.outputs[0]).shape[3]
                buffer_bytes = max(
                    buffer_bytes,
                    _align(layer.input_height * layer.input_width * in_channels)
                    + _align(layer.output_height * layer.output_width * out_channels),
                )
            tile = Tile(row_range[0], col_range[0], rows[0], cols[0], tuple(layer_tiles))
            largest = max(
                row_range[0],
                col_range[0],
                rows[0],
                cols[0],
                *(
                    max(layer.input_height, layer.input_width, layer.padding_height, layer.padding_width)
                    for layer in layer_tiles
                ),
            )
            if largest > INT16_MAX:
                raise ConfigError(
                    f"patch_based: a tile of nodes 0-{layers - 1} has a size or position over {INT16_MAX}",
                    hint="the tile table holds 16-bit sizes; use a shorter stage (patch_based.stages)",
                )
            tiles.append(tile)
    model_macs = sum(macs(node, None) for node in graph.nodes)
    return PatchStage(
        layers=tuple(node.index for node in nodes),
        grid=(grid_rows, grid_cols),
        tiles=tuple(tiles),
        buffer_bytes=buffer_bytes,
        layer_scratch_bytes=layer_scratch_bytes,
        macs=sum(macs(node, None) for node in nodes),
        tiled_macs=tiled_macs,
        model_macs=model_macs,
    )


@dataclasses.dataclass(frozen=True)
class AxisWindow:
    """A convolution's window along rows (axis 1) or columns (axis 2)."""

    size: int  # of the input
    taps: int
    stride: int
    dilation: int
    padding: int  # before the input (TFLite's SAME or VALID, or explicit)


def axis_window(graph: Graph, node: Node, axis: int) -> AxisWindow:
    attributes = node.attributes
    size = graph.tensor(node.inputs[0]).shape[axis]
    taps = graph.tensor(node.inputs[1]).shape[axis]
    stride = attributes.stride_height if axis == 1 else attributes.stride_width
    dilation = attributes.dilation_height if axis == 1 else attributes.dilation_width
    padding = window(axis_padding(attributes, axis), size, taps, stride, dilation).padding_before
    return AxisWindow(size, taps, stride, dilation, padding)


def _reach(node: Node, along: AxisWindow, axis: int, wanted: tuple[int, int]) -> tuple[tuple[int, int], int]:
    """The input rows (axis 1) or columns (axis 2) that output range `wanted` of `node` (whose window
    along that axis is `along`) reads (first to last inside the input; a dilated window may skip
    some), and the padding before them as the tile's kernel call sees it: its first window starts
    where the untiled one does."""
    read = _read_span(along, wanted)
    if read is None:
        raise ConfigError(
            f"{node.describe()}: outputs {wanted[0]}..{wanted[1] - 1} along axis {axis} read only padding",
            hint="use fewer tiles (patch_based.tiles)",
        )
    return read, read[0] - (wanted[0] * along.stride - along.padding)


@functools.lru_cache(maxsize=65536)
def _read_span(along: AxisWindow, wanted: tuple[int, int]) -> tuple[int, int] | None:
    """The first and one past the last input position inside the input that outputs `wanted` read
    (None: only padding). Each tap's positions over the outputs step by the stride, so its first and
    last inside the input are a division each; the automatic choice asks this for every layer of
    every tile of every candidate grid, often with the same arguments (hence the cache)."""
    low, high = None, None
    first_output, last_output = wanted[0], wanted[1] - 1
    for tap in range(along.taps):
        offset = tap * along.dilation - along.padding  # position = output * stride + offset
        # The first output whose position is >= 0, and the last whose position is < size.
        start = max(first_output, -(offset // along.stride))
        end = min(last_output, (along.size - 1 - offset) // along.stride)
        if start > end:
            continue
        low = start * along.stride + offset if low is None else min(low, start * along.stride + offset)
        high = end * along.stride + offset if high is None else max(high, end * along.stride + offset)
    return None if low is None or high is None else (low, high + 1)


def staged_graph(graph: Graph, stage: PatchStage) -> Graph:
    """`graph` with the stage's nodes replaced by one PATCH_STAGE node (step 0): it reads the
    stage input and every constant its layers read, and writes the stage output."""
    count = len(stage.layers)
    inner = graph.nodes[:count]
    constants = dict.fromkeys(
        index for node in inner for index in node.inputs if index is not None and graph.tensor(index).is_constant
    )
    stage_node = Node(
        index=0,
        name=f"patch stage of nodes 0-{count - 1}",
        op_type=PATCH_STAGE,
        inputs=[inner[0].inputs[0], *constants],
        outputs=[inner[-1].outputs[0]],
        attributes=stage,
    )
    rest = [dataclasses.replace(node, index=node.index - count + 1) for node in graph.nodes[count:]]
    return Graph(graph.name, graph.tensors, [stage_node, *rest], graph.inputs, graph.outputs)


def apply_patch_stage(
    graph: Graph, resolved: ResolvedGraph, stage: PatchStage, prefix: str
) -> tuple[Graph, ResolvedGraph]:
    """The staged graph and its operators: a PatchStageOperator for the stage, the others renumbered."""
    count = len(stage.layers)
    staged = staged_graph(graph, stage)
    inner = resolved.operators[:count]
    stage_operator = PatchStageOperator(staged.nodes[0], staged, prefix, inner[0].settings, stage, graph, inner)
    operators: list[AotOperator] = [stage_operator]
    for operator, node in zip(resolved.operators[count:], staged.nodes[1:], strict=True):
        renumbered = type(operator)(node, staged, prefix, operator.settings)
        renumbered.definition = operator.definition
        renumbered.on_resolve()  # a class may keep what it worked out there
        operators.append(renumbered)

    def shifted(indices: dict[int, Any]) -> dict[int, Any]:
        return {index - count + 1: value for index, value in indices.items() if index >= count}

    scratch = shifted(resolved.scratch_bytes)
    scratch[0] = stage.scratch_bytes
    return staged, ResolvedGraph(
        operators=operators,
        scratch_bytes=scratch,
        persistent_bytes=shifted(resolved.persistent_bytes),
        in_place_nodes={index - count + 1 for index in resolved.in_place_nodes if index >= count},
        in_place_scratch_bytes=shifted(resolved.in_place_scratch_bytes),
        output_slices=shifted(resolved.output_slices),
        aliasing_nodes={index - count + 1 for index in resolved.aliasing_nodes if index >= count},
    )


# A layer's instructions on each core (core -> count) as a node of a tile's sizes, by node position and
# tile (None: the whole node), or None where there is no estimate; the converter prices with
# `opbridge analyze`'s fitted lines (analysis/instruction_costs.py, layer_prices).
LayerPrices = Callable[[int, LayerTile | None], Mapping[str, int] | None]


class InstructionOverhead:
    """The extra instructions of running a stage's layers tile by tile, as a fraction of the whole
    model's: each layer of each tile priced as a node of the tile's sizes on the untiled node's kernel
    path (LayerPrices), so the per-call and per-row costs of small tiles count as well as the
    recomputed overlap. The larger fraction of the cores'; None when no core prices every node of the
    model. The model's own nodes are priced once, and each tile size once."""

    def __init__(self, graph: Graph, prices: LayerPrices) -> None:
        self._prices = prices
        self._cache: dict[tuple[int, LayerTile], Mapping[str, int] | None] = {}
        # The cores that price every node, and each node's price there.
        self._whole: dict[str, list[int]] = {}
        whole = [prices(node.index, None) for node in graph.nodes]
        priced = [price for price in whole if price is not None]
        if priced and len(priced) == len(whole):
            for core in sorted(set.intersection(*(set(price) for price in priced))):
                node_prices = [price[core] for price in priced]
                if sum(node_prices) > 0:
                    self._whole[core] = node_prices

    def __call__(self, stage: PatchStage) -> float | None:
        if not self._whole:
            return None
        fractions = []
        for core, whole in self._whole.items():
            tiled = 0
            for tile in stage.tiles:
                for position, layer in zip(stage.layers, tile.layers, strict=True):
                    price = self._price(position, layer)
                    tiled += price.get(core, 0) if price is not None else 0
            fractions.append((tiled - sum(whole[: len(stage.layers)])) / sum(whole))
        return max(fractions)

    def _price(self, position: int, layer: LayerTile) -> Mapping[str, int] | None:
        if (position, layer) not in self._cache:  # the tiles of a grid mostly share their sizes
            self._cache[position, layer] = self._prices(position, layer)
        return self._cache[position, layer]


def candidate_grids(tiles: int | tuple[int, int] | str, height: int, width: int) -> list[tuple[int, int]]:
    """The grids to try over a stage output of height x width: `tiles` as given (n: n x n), or with
    "auto" every grid of up to MAX_TILES_PER_SIDE x MAX_TILES_PER_SIDE tiles that fits, square or not
    (row strips and column strips too: each recomputes the overlap along one axis only)."""
    if tiles == "auto":
        return [
            (rows, cols)
            for rows in range(1, min(height, MAX_TILES_PER_SIDE) + 1)
            for cols in range(1, min(width, MAX_TILES_PER_SIDE) + 1)
            if rows * cols >= 2
        ]
    if isinstance(tiles, int):
        return [(tiles, tiles)]
    rows, cols = tiles
    return [(int(rows), int(cols))]


def choose_patch_stage(
    graph: Graph,
    resolved: ResolvedGraph,
    stages: int | str,
    tiles: int | tuple[int, int] | str,
    max_overhead: float,
    estimate: Callable[[Graph, ResolvedGraph], int],
    instruction_overhead: Callable[[PatchStage], float | None] = lambda stage: None,
) -> tuple[PatchStage | None, str]:
    """The stage (length and grid) of smallest estimated arena whose extra work stays within
    max_overhead (settings given as numbers are taken as they are), and a note.

    `estimate` gives a graph's arena before placement (the liveness bound); `instruction_overhead` a
    stage's estimated extra instructions as a fraction of the model's (InstructionOverhead),
    which max_overhead bounds where there is one (else the extra MACs, a fraction of the model's)."""
    chain, why = stage_chain(graph, resolved.operators)
    if chain == 0:
        if stages != "auto":
            raise ConfigError(
                f"patch_based.stages: {stages} layers asked for, but {why}",
                hint="patch-based stages start at the first node and hold int8 CONV_2D / DEPTHWISE_CONV_2D layers",
            )
        return None, f"patch-based: no stage ({why})"
    if stages != "auto" and int(stages) > chain:
        raise ConfigError(
            f"patch_based.stages: {stages} layers asked for, but only the first {chain} can run as tiles: {why}",
            hint=f"use stages: 1 .. {chain}, or 'auto'",
        )
    lengths = range(1, chain + 1) if stages == "auto" else [int(stages)]
    layer_scratch = [operator.scratch_bytes() for operator in resolved.operators[:chain]]
    baseline = estimate(graph, resolved)
    best: tuple[tuple[int, float, int], PatchStage] | None = None
    fixed = stages != "auto" and tiles != "auto"
    for length in lengths:
        _, height, width, _ = graph.tensor(graph.nodes[length - 1].outputs[0]).shape
        grids = candidate_grids(tiles, height, width)
        if stages == "auto" and tiles != "auto":  # automatic lengths skip stages whose output is smaller than the grid
            grids = [(rows, cols) for rows, cols in grids if rows <= height and cols <= width]
        for grid in grids:
            try:
                stage = plan_tiles(graph, length, grid, max(layer_scratch[:length]), operator_macs(resolved.operators))
            except ConfigError:
                if stages != "auto":
                    raise
                continue  # a grid this stage cannot take (a tile reading only padding): not a candidate
            stage = dataclasses.replace(stage, instruction_overhead=instruction_overhead(stage))
            if not fixed and stage.limited_overhead > max_overhead:
                continue
            staged, staged_resolved = apply_patch_stage(graph, resolved, stage, "estimate")
            key = (estimate(staged, staged_resolved), stage.limited_overhead, length)
            if best is None or key < best[0]:
                best = (key, stage)
    if best is None:
        return None, f"patch-based: no stage fits the grid and keeps the extra work within max_overhead {max_overhead}"
    if best[0][0] >= baseline and stages == "auto" and tiles == "auto":
        return None, f"patch-based: no stage shrinks the arena below {baseline} bytes; the model runs whole"
    return best[1], best[1].describe()


class _TileContext(EmitContext):
    """Names a stage layer's emitter sees: its input and output are the tile buffers, its
    scratch the stage's layer scratch, its definitions named after the stage."""

    def __init__(self, prefix: str, graph: Graph, plan: MemoryPlan, stage_symbol: str) -> None:
        super().__init__(prefix, graph, plan)
        self.stage_symbol = stage_symbol
        self.tile_pointers: dict[int, str] = {}

    def pointer(self, index: int) -> str:
        if index in self.tile_pointers:
            return self.tile_pointers[index]
        if not self.graph.tensor(index).is_constant:
            raise ConfigError(f"{self.graph.tensor(index).describe()} is not a tile buffer of the patch stage")
        return super().pointer(index)

    def scratch_pointer(self, node: Node, ctype: str) -> str:
        return f"(({ctype} *)layer_scratch)"

    def persistent_pointer(self, node: Node, ctype: str) -> str:
        raise ConfigError(f"{node.describe()} keeps state; a patch stage cannot hold it")

    def node_symbol(self, node: Node) -> str:
        return f"{self.stage_symbol}_layer_{node.index}_{node.op_type.lower()}"


class PatchStageOperator(NodeCodeOperator):
    """The C of a patch stage: a loop over the tiles, each gathering its window of the stage
    input, running every layer's kernel with the tile's sizes, and copying its output into place."""

    TYPE = PATCH_STAGE

    def __init__(
        self,
        node: Node,
        graph: Graph,
        prefix: str,
        settings: Any,
        stage: PatchStage,
        original: Graph,
        layers: Sequence[Any],
    ) -> None:
        super().__init__(node, graph, prefix, settings)
        self.stage = stage
        self.original = original
        self.layers = list(layers)

    def scratch_bytes(self) -> int:
        return self.stage.scratch_bytes

    def absorbed_constants(self) -> list[int]:
        """Constants every layer that reads them absorbs (folded biases)."""
        absorbed = set()
        for index in self.node.inputs[1:]:
            readers = [layer for layer in self.layers if index in layer.node.inputs]
            if readers and all(index in layer.absorbed_constants() for layer in readers):
                absorbed.add(index)
        return sorted(absorbed)

    def emit_node_code(self, context: EmitContext) -> NodeCode:
        stage, graph = self.stage, self.original
        symbol = f"{self.prefix}_{self.name}"
        layer_context = _TileContext(self.prefix, graph, context.plan, symbol)
        code = NodeCode(includes=["string.h"])
        count = len(stage.layers)
        code.definitions.append(self._geometry(symbol, count))
        first_input = graph.tensor(graph.nodes[0].inputs[0])
        last_output = graph.tensor(graph.nodes[count - 1].outputs[0])
        _, _, in_width, in_channels = first_input.shape
        _, _, out_width, out_channels = last_output.shape
        lines = [
            f"const int8_t *stage_input = {context.pointer(first_input.index)};",
            f"int8_t *stage_output = {context.pointer(last_output.index)};",
            "/* One tile's layer input and output at the two ends of the first "
            f"{stage.buffer_bytes} bytes, then the layers' scratch. */",
            f"uint8_t *buffers = ctx->arena + {context.plan.scratch_offset(self.node.index)}u;",
            f"int8_t *layer_scratch = (int8_t *)(buffers + {stage.buffer_bytes}u);",
            "(void)layer_scratch;",
            f"for (int32_t t = 0; t < {len(stage.tiles)}; ++t) {{",
            f"  const {symbol}_tile *tile = &{symbol}_tiles[t];",
            "  int8_t *layer_input = (int8_t *)buffers;",
            "  int8_t *layer_output;",
            "  /* The tile's window of the stage input. */",
            "  for (int32_t row = 0; row < tile->layers[0].input_height; ++row) {",
            f"    memcpy(layer_input + row * tile->layers[0].input_width * {in_channels},",
            f"           stage_input + ((tile->input_y + row) * {in_width} + tile->input_x) * {in_channels},",
            f"           (size_t)tile->layers[0].input_width * {in_channels});",
            "  }",
        ]
        for position, (operator, node) in enumerate(zip(self.layers, graph.nodes[:count], strict=True)):
            lines += ["  " + line for line in self._layer(code, layer_context, position, operator, node)]
        lines += [
            "  /* The tile's output, into its place in the stage output. */",
            f"  for (int32_t row = 0; row < tile->layers[{count - 1}].output_height; ++row) {{",
            f"    memcpy(stage_output + ((tile->output_y + row) * {out_width} + tile->output_x) * {out_channels},",
            f"           layer_input + row * tile->layers[{count - 1}].output_width * {out_channels},",
            f"           (size_t)tile->layers[{count - 1}].output_width * {out_channels});",
            "  }",
            "}",
        ]
        code.statements = lines
        return code

    def _geometry(self, symbol: str, count: int) -> str:
        tiles = []
        for tile in self.stage.tiles:
            layers = ", ".join(
                "{" + ", ".join(str(v) for v in dataclasses.astuple(layer)) + "}" for layer in tile.layers
            )
            tiles.append(f"    {{{tile.input_y}, {tile.input_x}, {tile.output_y}, {tile.output_x}, {{{layers}}}}},")
        return f"""/* {self.node.describe()}: {self.stage.describe()}. Per tile and layer: input and output
 * rows and columns, and the padding before them (docs/memory_planner.md, "Patch-based inference"). */
typedef struct {{
  int16_t input_height;
  int16_t input_width;
  int16_t output_height;
  int16_t output_width;
  int16_t padding_height;
  int16_t padding_width;
}} {symbol}_layer_tile;

typedef struct {{
  int16_t input_y; /* the tile's window of the stage input */
  int16_t input_x;
  int16_t output_y; /* its place in the stage output */
  int16_t output_x;
  {symbol}_layer_tile layers[{count}];
}} {symbol}_tile;

{constants_placement(self.prefix)} static const {symbol}_tile {symbol}_tiles[{len(self.stage.tiles)}] = {{
{chr(10).join(tiles)}
}};"""

    def _layer(self, code: NodeCode, context: _TileContext, position: int, operator: Any, node: Node) -> list[str]:
        """One layer of a tile: its emitter's kernel call on a copy of its parameters with the tile's sizes."""
        context.tile_pointers = {node.inputs[0]: "layer_input", node.outputs[0]: "layer_output"}
        layer_code = operator.emit_node_code(context)
        call = layer_code.call
        tiled = ("input", "output", "padding_height", "padding_width")
        if (
            call is None
            or call.params is None
            or not call.params.has_fields(*tiled)
            or layer_code.statements
            or layer_code.init_statements
        ):
            raise ConfigError(
                f"{node.describe()}: its C is not one kernel call with one parameter struct "
                "with the fields input, output, padding_height and padding_width; it cannot run in a patch stage",
                hint="set patch_based.stages to the layers before it",
            )
        code.includes += layer_code.includes
        code.definitions += [*layer_code.definitions, call.params]
        channels = self.original.tensor(node.outputs[0]).shape[3]
        bottom = position % 2 == 1  # outputs alternate ends: the top for layers 0, 2, ...
        where = (
            "(int8_t *)buffers"
            if bottom
            else f"(int8_t *)(buffers + {self.stage.buffer_bytes}u - "
            f"(((size_t)g->output_height * g->output_width * {channels} + 3u) & ~(size_t)3u))"
        )
        return [
            f"{{ /* {node.describe()} */",
            f"  const {context.stage_symbol}_layer_tile *g = &tile->layers[{position}];",
            f"  {call.params.c_type} params = {call.params.symbol};",
            "  params.input.height = g->input_height;",
            "  params.input.width = g->input_width;",
            "  params.output.height = g->output_height;",
            "  params.output.width = g->output_width;",
            "  params.padding_height = g->padding_height;",
            "  params.padding_width = g->padding_width;",
            f"  layer_output = {where};",
            "  " + render_statement(call, "&params"),
            "  if (status != 0) {",
            "    return status;",
            "  }",
            "  layer_input = layer_output;",
            "}",
        ]
