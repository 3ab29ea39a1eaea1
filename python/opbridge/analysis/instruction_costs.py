# SPDX-License-Identifier: Apache-2.0
"""Estimated instructions per node and core, from the cycles benchmark's timed nodes.

`bazel run -c opt //tests/benchmarks:cycles -- --write-costs` times every
node of the benchmark's models on the emulated Cortex-M55 (Helium kernels)
and Cortex-M4 (DSP kernels), fits one line per core, operator and dtype
(and one per kernel path, for operators whose paths differ in cost per MAC:
OperatorDefinition.cost_class),

    instructions = per_mac * MACs + per_output * output elements
                   + per_input * input elements + per_row_block * row blocks + per_call

(least squares, every coefficient kept non-negative; row blocks count only
for the convolutions, NodeWork.row_blocks), and writes the lines
to instruction_costs.json beside this file. The estimate is the line of the
node's kernel path (its operator's when that path was never timed) applied
to a node of another model. An operator no timed node had takes the generic
line of its dtype (generic_key: fitted on every node of that dtype, those
with MACs and those without apart), so every node has an estimate. The
benchmark fits on part of its models and prints how far the estimates are
from the measured runs of the rest.
"""

import dataclasses
import itertools
import json
import pathlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from opbridge.aot.patch_stage import LayerPrices, LayerTile
from opbridge.ir import Graph, Node
from opbridge.ops.definition import multiply_accumulates
from opbridge.registry_context import OperatorRegistry

COSTS_FILE = pathlib.Path(__file__).with_name("instruction_costs.json")


@dataclasses.dataclass(frozen=True)
class Line:
    per_mac: float
    per_output: float
    per_call: float
    nodes: int  # timed nodes behind the fit
    # Reductions and pools cost per element read, not per element written (MEAN, AVERAGE_POOL_2D).
    per_input: float = 0.0
    # Convolutions cost per output row and block of 16 output channels (NodeWork.row_blocks) too.
    per_row_block: float = 0.0

    def apply(self, macs: int, output_elements: int, input_elements: int = 0, row_blocks: int = 0) -> float:
        return (
            self.per_mac * macs
            + self.per_output * output_elements
            + self.per_input * input_elements
            + self.per_row_block * row_blocks
            + self.per_call
        )


@dataclasses.dataclass(frozen=True)
class InstructionCosts:
    source: str
    lines: Mapping[str, Mapping[str, Line]]  # core -> "OP_TYPE/dtype" -> line

    @property
    def cores(self) -> tuple[str, ...]:
        return tuple(self.lines)

    def estimate(
        self,
        core: str,
        op_type: str,
        dtype: str,
        macs: int,
        output_elements: int,
        cost_class: str = "",
        input_elements: int = 0,
        row_blocks: int = 0,
    ) -> int | None:
        """The line of the node's kernel path (cost_class) if one was fitted, else its operator's, else the
        generic line of its dtype (generic_key), else the generic line of every dtype."""
        lines = self.lines.get(core, {})
        line = lines.get(cost_key(op_type, dtype, cost_class)) if cost_class else None
        line = line or lines.get(cost_key(op_type, dtype))
        line = line or lines.get(generic_key(dtype, macs > 0)) or lines.get(generic_key(ANY_DTYPE, macs > 0))
        if line is None:
            return None
        return round(line.apply(macs, output_elements, input_elements, row_blocks))

    def has_own_line(self, core: str, op_type: str, dtype: str) -> bool:
        """Whether the operator has a line of its own for `dtype` (else its estimate is a generic line's)."""
        return cost_key(op_type, dtype) in self.lines.get(core, {})

    def estimate_work(self, core: str, op_type: str, work: "NodeWork") -> int | None:
        """estimate() of a node's work as node_work describes it."""
        return self.estimate(
            core,
            op_type,
            work.dtype,
            work.macs,
            work.output_elements,
            work.cost_class,
            work.input_elements,
            work.row_blocks,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "lines": {
                core: {key: dataclasses.asdict(line) for key, line in sorted(lines.items())}
                for core, lines in self.lines.items()
            },
        }


@dataclasses.dataclass(frozen=True)
class NodeWork:
    dtype: str  # of its first activation input (else its first input or output)
    macs: int
    output_elements: int
    cost_class: str = ""  # its kernel path (OperatorDefinition.cost_class), "" when the op has one line
    input_elements: int = 0  # of its activation inputs (constants not counted)
    # Output rows (batches x height) x blocks of 16 output channels, for the operators with kernel paths
    # (the convolutions, whose kernels set up each row of a block once: its window lines, its call), else 0.
    row_blocks: int = 0


def node_work(graph: Graph, node: Node, operators: OperatorRegistry) -> NodeWork:
    """What the estimate of `node` depends on (the benchmark's fit and the report use this one definition);
    its MACs are its definition's in `operators` (OperatorDefinition.macs)."""
    inputs = [graph.tensor(index) for index in node.inputs if index is not None]
    outputs = [graph.tensor(index) for index in node.outputs]
    candidates = [tensor for tensor in inputs if not tensor.is_constant] + inputs + outputs
    dtype = candidates[0].dtype.name.lower() if candidates else ""
    definition = operators.get(node.op_type)
    macs = multiply_accumulates(definition, graph, node)
    cost_class = definition.cost_class(graph, node) if definition is not None and definition.cost_class else ""
    read = sum(tensor.element_count for tensor in inputs if not tensor.is_constant)
    row_blocks = 0
    if cost_class and outputs and len(outputs[0].shape) == 4:
        batches, height, _, channels = outputs[0].shape
        row_blocks = batches * height * -(-channels // 16)
    return NodeWork(dtype, macs, sum(tensor.element_count for tensor in outputs), cost_class, read, row_blocks)


def layer_prices(
    graph: Graph, operators: Sequence[Any], registry: OperatorRegistry, costs: InstructionCosts
) -> LayerPrices:
    """The patch stage's LayerPrices from the fitted lines: a node's estimate on every core that has
    one (its own sizes, or a tile's: the tile's MACs, input and output elements and row blocks, on the
    untiled node's kernel path); `operators` are the graph's resolved operators (AotOperator.macs)."""
    works = [node_work(graph, node, registry) for node in graph.nodes]

    def prices(position: int, tile: LayerTile | None) -> dict[str, int] | None:
        node, work = graph.nodes[position], works[position]
        if tile is not None:
            batches, _, _, channels = graph.tensor(node.outputs[0]).shape
            input_channels = graph.tensor(node.inputs[0]).shape[3]
            work = dataclasses.replace(
                work,
                macs=operators[position].macs((batches, tile.output_height, tile.output_width, channels)),
                output_elements=batches * tile.output_height * tile.output_width * channels,
                input_elements=batches * tile.input_height * tile.input_width * input_channels,
                row_blocks=batches * tile.output_height * -(-channels // 16) if work.cost_class else 0,
            )
        found = {core: costs.estimate_work(core, node.op_type, work) for core in costs.cores}
        priced = {core: value for core, value in found.items() if value is not None}
        return priced or None

    return prices


def cost_key(op_type: str, dtype: str, cost_class: str = "") -> str:
    """ "CONV_2D/int8", or with a kernel path "CONV_2D/int8/pointwise_narrow"."""
    return f"{op_type}/{dtype}/{cost_class}" if cost_class else f"{op_type}/{dtype}"


# The generic lines: fitted on every timed node of a dtype (or of all, ANY_DTYPE) that multiplies
# (MACs > 0) or that does not, they estimate an operator no timed node had, so that every node has a
# figure (the report names the operators estimated so).
ANY_DTYPE = "*"


def generic_key(dtype: str, multiplies: bool) -> str:
    """ "*/int8" (nodes without MACs: element-wise ops, data movement) or "*/int8/macs"."""
    return f"*/{dtype}/macs" if multiplies else f"*/{dtype}"


def fit_line(samples: Iterable[tuple[int, ...]]) -> Line:
    """The least-squares line through (MACs, output elements[, input elements[, row blocks]], instructions)
    with non-negative coefficients: the best of the fits on every subset of the terms whose
    coefficients all come out non-negative (five terms: 31 small fits). Plain least squares:
    weighting by the inverse of the instructions (relative error) was tried and fitted the models'
    totals worse."""
    rows = [tuple(sample) for sample in samples]
    rows = [(*row[:-1], *(0,) * (5 - len(row)), row[-1]) for row in rows]
    points = np.array(rows, dtype=np.float64).reshape(-1, 5)
    features = np.column_stack([points[:, :4], np.ones(len(points))])
    target = points[:, 4]
    best: tuple[float, np.ndarray] | None = None
    for subset in itertools.chain.from_iterable(itertools.combinations(range(5), k) for k in range(1, 6)):
        columns = list(subset)
        solution, *_ = np.linalg.lstsq(features[:, columns], target, rcond=None)
        if (solution < 0).any():
            continue
        coefficients = np.zeros(5)
        coefficients[columns] = solution
        residual = float(np.sum((features @ coefficients - target) ** 2))
        if best is None or residual < best[0] - 1e-9 * max(residual, 1.0):
            best = (residual, coefficients)
    assert best is not None  # the per-call term alone is the mean, never negative
    per_mac, per_output, per_input, per_row_block, per_call = (float(value) for value in best[1])
    return Line(per_mac, per_output, per_call, len(points), per_input, per_row_block)


def load_instruction_costs(path: pathlib.Path = COSTS_FILE) -> InstructionCosts:
    """The fitted lines; none (every estimate None) when the file is missing."""
    if not path.is_file():
        return InstructionCosts(source=f"nothing: {path.name} is missing", lines={})
    data = json.loads(path.read_text())
    lines = {
        core: {key: Line(**line) for key, line in core_lines.items()} for core, core_lines in data["lines"].items()
    }
    return InstructionCosts(source=data["source"], lines=lines)
