# SPDX-License-Identifier: Apache-2.0
"""Estimated instructions per node and core, from the cycles benchmark's timed nodes.

`bazel run -c opt //tests/benchmarks:cycles -- --write-costs` times every
node of the benchmark's models on the emulated Cortex-M55 (Helium kernels)
and Cortex-M4 (DSP kernels), fits one line per core, operator and dtype,

    instructions = per_mac * MACs + per_output * output elements + per_call

(least squares, every coefficient kept non-negative), and writes the lines
to instruction_costs.json beside this file. The estimate is that line
applied to a node of another model; kernels whose cost is not linear in
these (a 1x1 against a 3x3 convolution, say) are only approximated, and
the benchmark prints how far the estimates are from the measured runs.
"""

import dataclasses
import itertools
import json
import pathlib
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

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

    def apply(self, macs: int, output_elements: int) -> float:
        return self.per_mac * macs + self.per_output * output_elements + self.per_call


@dataclasses.dataclass(frozen=True)
class InstructionCosts:
    source: str
    lines: Mapping[str, Mapping[str, Line]]  # core -> "OP_TYPE/dtype" -> line

    @property
    def cores(self) -> tuple[str, ...]:
        return tuple(self.lines)

    def estimate(self, core: str, op_type: str, dtype: str, macs: int, output_elements: int) -> int | None:
        line = self.lines.get(core, {}).get(cost_key(op_type, dtype))
        if line is None:
            return None
        return round(line.apply(macs, output_elements))

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


def node_work(graph: Graph, node: Node, operators: OperatorRegistry) -> NodeWork:
    """What the estimate of `node` depends on (the benchmark's fit and the report use this one definition);
    its MACs are its definition's in `operators` (OperatorDefinition.macs)."""
    inputs = [graph.tensor(index) for index in node.inputs if index is not None]
    outputs = [graph.tensor(index) for index in node.outputs]
    candidates = [tensor for tensor in inputs if not tensor.is_constant] + inputs + outputs
    dtype = candidates[0].dtype.name.lower() if candidates else ""
    macs = multiply_accumulates(operators.get(node.op_type), graph, node)
    return NodeWork(dtype, macs, sum(tensor.element_count for tensor in outputs))


def cost_key(op_type: str, dtype: str) -> str:
    return f"{op_type}/{dtype}"


def fit_line(samples: Iterable[tuple[int, int, int]]) -> Line:
    """The least-squares line through (MACs, output elements, instructions) with non-negative
    coefficients: the best of the fits on every subset of the three terms whose coefficients
    all come out non-negative (three terms: seven small fits). Plain least squares: weighting
    by the inverse of the instructions (relative error) was tried and fitted the models'
    totals worse."""
    points = np.array(list(samples), dtype=np.float64).reshape(-1, 3)
    features = np.column_stack([points[:, 0], points[:, 1], np.ones(len(points))])
    target = points[:, 2]
    best: tuple[float, np.ndarray] | None = None
    for subset in itertools.chain.from_iterable(itertools.combinations(range(3), k) for k in (1, 2, 3)):
        columns = list(subset)
        solution, *_ = np.linalg.lstsq(features[:, columns], target, rcond=None)
        if (solution < 0).any():
            continue
        coefficients = np.zeros(3)
        coefficients[columns] = solution
        residual = float(np.sum((features @ coefficients - target) ** 2))
        if best is None or residual < best[0] - 1e-9 * max(residual, 1.0):
            best = (residual, coefficients)
    assert best is not None  # the per-call term alone is the mean, never negative
    per_mac, per_output, per_call = (float(value) for value in best[1])
    return Line(per_mac, per_output, per_call, len(points))


def load_instruction_costs(path: pathlib.Path = COSTS_FILE) -> InstructionCosts:
    """The fitted lines; none (every estimate None) when the file is missing."""
    if not path.is_file():
        return InstructionCosts(source=f"nothing: {path.name} is missing", lines={})
    data = json.loads(path.read_text())
    lines = {
        core: {key: Line(**line) for key, line in core_lines.items()} for core, core_lines in data["lines"].items()
    }
    return InstructionCosts(source=data["source"], lines=lines)
