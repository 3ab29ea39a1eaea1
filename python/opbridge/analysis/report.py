# SPDX-License-Identifier: Apache-2.0
"""What a model costs, node by node, without writing C: `opbridge analyze` and `convert --report`.

report = analyze_model(ConvertArgs(model="kws.tflite", output_dir="unused"))
print(report.to_table())

The figures come from the same plan `convert` writes (the converter's
`plan()`), so they agree with plan.json: per node its operator, shapes,
MACs, weight bytes, activation bytes in and out, scratch, the arena bytes
live while it runs and the highest arena byte in use then, and estimated
instructions per core (instruction_costs.py); totals against the liveness
bound, the largest-first arena and, when the `tflite-micro` package is
importable and the model is a .tflite file, TFLite Micro's arena.
"""

import dataclasses
import json
import pathlib
from typing import Any

from opbridge.analysis.instruction_costs import InstructionCosts, load_instruction_costs, node_work
from opbridge.analysis.tflm import TflmArena, tflm_arena
from opbridge.backends.c.memory_plan import MemoryPlan, tensor_lifetimes
from opbridge.backends.c.stack_usage import StackBound
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.ir import Graph, Node, Tensor
from opbridge.passes.pipeline import passes_note
from opbridge.passes.qdq_islands import remaining_islands_note
from opbridge.progress import Progress
from opbridge.registry import default_registry_context
from opbridge.registry_context import OperatorRegistry, RegistryContext

REPORT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class NodeRow:
    """One node's figures, in schedule order."""

    step: int
    name: str
    op_type: str
    inputs: tuple[str, ...]  # "int8[1,49,10,1]" per activation input
    weights: tuple[str, ...]  # the same for constant inputs
    outputs: tuple[str, ...]
    macs: int
    weight_bytes: int
    input_bytes: int  # activations read
    output_bytes: int  # activations written
    scratch_bytes: int
    live_bytes: int  # arena bytes live while the node runs (its scratch and every live tensor and state)
    arena_top_bytes: int  # the highest arena byte in use while it runs
    instructions: dict[str, int | None]  # estimated, per core (None: no figure for this operator)


@dataclasses.dataclass(frozen=True)
class ArenaBar:
    """One bar of the arena plot: a tensor, a scratch or a state, at its offset across its steps."""

    kind: str  # "tensor", "scratch" or "state"
    label: str
    offset: int
    bytes: int
    first_step: int  # -1: a model input, written before the first node
    last_step: int  # steps (the node count): a model output, read after the last node


@dataclasses.dataclass(frozen=True)
class Report:
    model: str
    prefix: str
    rows: tuple[NodeRow, ...]
    bars: tuple[ArenaBar, ...]
    arena_bytes: int
    lower_bound_bytes: int
    largest_first_bytes: int
    strategy: str
    optimal: bool
    constant_bytes: int
    tflm: TflmArena | None  # None: not a .tflite model, or tflite-micro is not importable
    cores: tuple[str, ...]
    instruction_source: str  # where the per-operator instruction figures come from
    notes: tuple[str, ...]  # what the graph passes removed, the schedule's and patch stage's notes
    patch_stage: dict[str, Any] | None
    max_arena_bytes: int | None = None  # the RAM budget of the settings (max_arena_bytes), if any
    stack: tuple[StackBound, ...] = ()  # the module's worst-case stack per core (ConvertArgs.stack_bound)

    @property
    def macs(self) -> int:
        return sum(row.macs for row in self.rows)

    @property
    def peak_step(self) -> int:
        return max(self.rows, key=lambda row: row.live_bytes).step if self.rows else 0

    def budget_line(self) -> str:
        """How the arena stands against max_arena_bytes ('' without a budget)."""
        if self.max_arena_bytes is None:
            return ""
        difference = self.max_arena_bytes - self.arena_bytes
        if difference >= 0:
            return f"  budget (max_arena_bytes): {self.max_arena_bytes} bytes, {difference} to spare"
        return (
            f"  budget (max_arena_bytes): {self.max_arena_bytes} bytes, OVER by {-difference} "
            "(convert fails with this budget, naming the peak step and what is live there)"
        )

    def estimated_instructions(self, core: str) -> int | None:
        """The model's estimated instructions on `core`; None when any node has no figure."""
        figures = [row.instructions.get(core) for row in self.rows]
        return None if any(figure is None for figure in figures) else sum(f for f in figures if f is not None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "report_version": REPORT_VERSION,
            "model": self.model,
            "prefix": self.prefix,
            "totals": {
                "nodes": len(self.rows),
                "macs": self.macs,
                "constant_bytes": self.constant_bytes,
                "arena_bytes": self.arena_bytes,
                "lower_bound_bytes": self.lower_bound_bytes,
                "largest_first_arena_bytes": self.largest_first_bytes,
                "placement": self.strategy,
                "optimal": self.optimal,
                "peak_step": self.peak_step,
                "max_arena_bytes": self.max_arena_bytes,
                "tflm": None if self.tflm is None else dataclasses.asdict(self.tflm),
                "estimated_instructions": {core: self.estimated_instructions(core) for core in self.cores},
            },
            "instruction_source": self.instruction_source,
            "notes": list(self.notes),
            "patch_stage": self.patch_stage,
            "stack": {bound.core: bound.to_dict() for bound in self.stack},
            "nodes": [dataclasses.asdict(row) for row in self.rows],
            "arena": [dataclasses.asdict(bar) for bar in self.bars],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_table(self) -> str:
        cores = self.cores
        header = (
            f"{'step':>4}  {'operator':<18}{'output':<22}{'MACs':>10}{'weights':>9}{'in':>8}{'out':>8}"
            f"{'scratch':>8}{'live':>8}{'top':>8}" + "".join(f"{_core_title(core):>11}" for core in cores)
        )
        lines = [f"{self.model}: {len(self.rows)} nodes, prefix {self.prefix}", header, "-" * len(header)]
        for row in self.rows:
            lines.append(
                f"{row.step:>4}  {row.op_type[:17]:<18}{(row.outputs[0] if row.outputs else '-')[:21]:<22}"
                f"{row.macs:>10}{row.weight_bytes:>9}{row.input_bytes:>8}{row.output_bytes:>8}"
                f"{row.scratch_bytes:>8}{row.live_bytes:>8}{row.arena_top_bytes:>8}"
                + "".join(f"{_figure(row.instructions.get(core)):>11}" for core in cores)
            )
        lines.append("-" * len(header))
        lines.append(
            f"{'total':<24}{'':<22}{self.macs:>10}{self.constant_bytes:>9}"
            + " " * 40
            + "".join(f"{_figure(self.estimated_instructions(core)):>11}" for core in cores)
        )
        proof = "optimal" if self.optimal else "not proven optimal"
        lines += [
            "",
            f"arena: {self.arena_bytes} bytes, placed by {self.strategy} ({proof})",
            f"  liveness lower bound: {self.lower_bound_bytes} bytes (peak at step {self.peak_step})",
            f"  largest-first placement (TFLite Micro's planner) of the same buffers: {self.largest_first_bytes} bytes",
            _tflm_line(self.tflm),
            self.budget_line(),
            *(bound.summary() for bound in self.stack),
            f"MACs: {self.macs} (MACs/16, the M55's floor: {self.macs // 16}); constants: {self.constant_bytes} bytes",
            "in, out: activation bytes read and written; live: arena bytes live during the step; top: the highest",
            "  arena byte in use then; instructions: estimated from the " + self.instruction_source,
            *self.notes,
        ]
        return "\n".join(line for line in lines if line)


def _core_title(core: str) -> str:
    return core.replace("cortex_", "").upper() + " instr"


def _figure(value: int | None) -> str:
    return "-" if value is None else str(value)


def _tflm_line(tflm: TflmArena | None) -> str:
    if tflm is None:
        return ""
    if tflm.total_bytes is None:
        return f"  TFLite Micro: {tflm.note}"
    return (
        f"  TFLite Micro's recorded arena: {tflm.total_bytes} bytes ({tflm.head_bytes} of tensors, {tflm.tail_bytes} "
        f"of its structures; tflite-micro {tflm.version})"
    )


def describe_tensor(tensor: Tensor) -> str:
    return f"{tensor.dtype.name.lower()}[{','.join(str(size) for size in tensor.shape)}]"


def analyze_model(
    config: ConvertArgs,
    registry_context: RegistryContext | None = None,
    *,
    progress: Progress | None = None,
    costs: InstructionCosts | None = None,
    with_tflm: bool = True,
) -> Report:
    """The report of one model (config as for a conversion; nothing is written)."""
    converter = AotConverter(config, registry_context, progress)
    planned = converter.plan()
    stack = ()
    if config.stack_bound:
        if progress is not None:
            progress.stage("computing the stack bound (arm-none-eabi-gcc -fstack-usage)")
        stack = converter.stack_bounds(planned)
    if with_tflm and progress is not None:
        progress.stage("measuring TFLite Micro's arena")
    notes = (
        passes_note(planned.pass_effects),
        remaining_islands_note(planned.graph),
        planned.schedule_note,
        planned.patch_note,
    )
    return build_report(
        planned.module_graph,
        planned.plan,
        config,
        notes,
        costs=costs,
        with_tflm=with_tflm,
        operators=converter.registry_context.operators,
        stack=stack,
    )


def build_report(
    graph: Graph,
    plan: MemoryPlan,
    config: ConvertArgs,
    notes: tuple[str, ...] = (),
    *,
    costs: InstructionCosts | None = None,
    with_tflm: bool = True,
    operators: OperatorRegistry | None = None,
    stack: tuple[StackBound, ...] = (),
) -> Report:
    """The report of a planned module (`graph` as the module runs it, e.g. ConvertResult.graph); each
    node's MACs are its definition's in `operators` (default: the built-ins)."""
    costs = costs or load_instruction_costs()
    operators = operators if operators is not None else default_registry_context().operators
    # TFLite Micro runs .tflite files only (tflm_arena says so for the others); a program has no file.
    tflm = tflm_arena(config.model, len(graph.inputs)) if with_tflm and isinstance(config.model, pathlib.Path) else None
    rows = tuple(_node_row(graph, plan, step, node, costs, operators) for step, node in enumerate(graph.nodes))
    notes = (*notes, generic_estimates_note(graph, costs, operators))
    return Report(
        model=config.model_name,
        prefix=config.prefix,
        rows=rows,
        bars=arena_bars(graph, plan),
        arena_bytes=plan.arena_bytes,
        lower_bound_bytes=plan.lower_bound_bytes,
        largest_first_bytes=plan.largest_first_bytes,
        strategy=plan.strategy,
        optimal=plan.optimal,
        constant_bytes=sum(tensor.bytes for tensor in graph.tensors if tensor.is_constant),
        tflm=tflm,
        cores=costs.cores,
        instruction_source=costs.source,
        notes=tuple(note for note in notes if note),
        patch_stage=plan.patch_stage,
        max_arena_bytes=config.max_arena_bytes,
        stack=stack,
    )


def generic_estimates_note(graph: Graph, costs: InstructionCosts, operators: OperatorRegistry) -> str:
    """The report's note on the operators whose instructions come from a generic line (none of their
    nodes was timed by the benchmark the lines were fitted on), or "" when none do."""
    generic = sorted(
        {
            f"{node.op_type} ({work.dtype})"
            for node in graph.nodes
            for work in [node_work(graph, node, operators)]
            if not all(costs.has_own_line(core, node.op_type, work.dtype) for core in costs.cores)
        }
    )
    if not generic or not costs.cores:
        return ""
    return (
        "instructions of "
        + ", ".join(generic)
        + ": the generic line of their dtype (no node of theirs was timed), a rough figure"
    )


def _node_row(
    graph: Graph, plan: MemoryPlan, step: int, node: Node, costs: InstructionCosts, operators: OperatorRegistry
) -> NodeRow:
    # A tensor read twice (ADD(x, x)) is read from one place: counted once.
    inputs = [graph.tensor(index) for index in dict.fromkeys(node.inputs) if index is not None]
    activations = [tensor for tensor in inputs if not tensor.is_constant]
    constants = [tensor for tensor in inputs if tensor.is_constant]
    outputs = [graph.tensor(index) for index in node.outputs]
    live = [buffer for buffer in plan.buffers if buffer.first_step <= step <= buffer.last_step]
    node_costs = node_work(graph, node, operators)
    macs = _macs(plan, node, step, node_costs.macs)
    return NodeRow(
        step=step,
        name=node.name or f"node {step}",
        op_type=node.op_type,
        inputs=tuple(describe_tensor(tensor) for tensor in activations),
        weights=tuple(describe_tensor(tensor) for tensor in constants),
        outputs=tuple(describe_tensor(tensor) for tensor in outputs),
        macs=macs,
        weight_bytes=sum(tensor.bytes for tensor in constants),
        input_bytes=sum(tensor.bytes for tensor in activations),
        output_bytes=sum(tensor.bytes for tensor in outputs),
        scratch_bytes=sum(buffer.size for buffer in plan.buffers if buffer.scratch_of_node == step),
        live_bytes=sum(buffer.size for buffer in live),
        arena_top_bytes=max((buffer.offset + buffer.size for buffer in live), default=0),
        instructions={
            core: costs.estimate_work(core, node.op_type, dataclasses.replace(node_costs, macs=macs))
            for core in costs.cores
        },
    )


def _macs(plan: MemoryPlan, node: Node, step: int, node_macs: int) -> int:
    if node.op_type == "PATCH_STAGE" and plan.patch_stage is not None and step == 0:
        return int(plan.patch_stage["tiled_macs"])  # the stage's layers, overlap recomputed
    return node_macs


def arena_bars(graph: Graph, plan: MemoryPlan) -> tuple[ArenaBar, ...]:
    """One bar per planned tensor (at its own offset and lifetime: aliases and slices share
    their buffer's bytes at other steps), scratch and state."""
    lifetimes = tensor_lifetimes(graph)
    bars = []
    for buffer in sorted(plan.buffers, key=lambda b: (b.offset, b.first_step)):
        if buffer.scratch_of_node is not None:
            node = graph.nodes[buffer.scratch_of_node]
            label = f"scratch of {node.describe()}"
            bars.append(ArenaBar("scratch", label, buffer.offset, buffer.size, buffer.first_step, buffer.last_step))
        elif buffer.persistent_of_node is not None:
            node = graph.nodes[buffer.persistent_of_node]
            label = f"state of {node.describe()}"
            bars.append(ArenaBar("state", label, buffer.offset, buffer.size, buffer.first_step, buffer.last_step))
        for index in buffer.tensors:
            tensor = graph.tensor(index)
            first, last = lifetimes.get(index, (buffer.first_step, buffer.last_step))
            bars.append(ArenaBar("tensor", tensor.describe(), plan.offset_of(index), tensor.bytes, first, last))
    return tuple(bars)
