# SPDX-License-Identifier: Apache-2.0
"""The ahead-of-time converter: a model in (.tflite, .onnx, .pt2, or a torch.export ExportedProgram),
a C module, its memory plan and optionally a golden test out.

result = AotConverter(ConvertArgs(model="kws.tflite", output_dir="out", prefix="kws")).convert()
result.plan.arena_bytes

With plugins: AotConverter(config, registry_context=build_default_registry_context(
customizers=[my_plugin.customize_registry])). Without a context the built-ins are used.

Stages (docs/architecture.md): read (frontends.models.load_model: LiteRT model hooks and parsers, ONNX
converters, torch converters) -> check every node against its schema -> transforms (config
`transforms`) -> schedule (config `schedule`) -> resolve (one AotOperator per node, code-generation
settings from config `operators`) -> patch-based stage (config `patch_based`) -> memory plan
(activations, scratch, persistent state) -> golden outputs -> emit (C module, CMakeLists.txt, plan.json).
`plan()` stops before the golden outputs (what `opbridge analyze` reports).
"""

import dataclasses
import pathlib
import re
import tempfile
from typing import Annotated, Any, Literal

import pydantic
import yaml

from opbridge.aot.compile import plan_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.aot.patch_stage import InstructionOverhead, PatchStage, apply_patch_stage, choose_patch_stage
from opbridge.aot.resolve import OperatorRule, ResolvedGraph, resolve_operators
from opbridge.backends.c.emitter import EmittedModule, check_cmake_lists_is_ours, check_prefix, emit_module
from opbridge.backends.c.golden import golden_test_source
from opbridge.backends.c.golden_inputs import DEFAULT_SEED
from opbridge.backends.c.memory_plan import DEFAULT_ALIGNMENT, MemoryPlan, arena_lower_bound
from opbridge.backends.c.placement import DEFAULT_SEARCH_BUDGET
from opbridge.backends.c.schedule import best_schedule, reorder
from opbridge.backends.c.stack_usage import StackBound, emitted_stack_bounds, with_stack_bounds
from opbridge.errors import ConfigError, nearest
from opbridge.frontends.models import is_exported_program, load_model, model_format
from opbridge.ir import Graph
from opbridge.ops.definition import aliases_input
from opbridge.ops.operation import validate_graph
from opbridge.output_paths import check_output_directory, check_output_file, writing_to
from opbridge.passes.pipeline import PassEffect, passes_note, run_graph_passes
from opbridge.passes.qdq_islands import remaining_islands_note
from opbridge.passes.transposes import channels_last_inputs
from opbridge.progress import Progress
from opbridge.registry import default_registry_context
from opbridge.registry_context import OperatorRegistry, RegistryContext
from opbridge.transforms import apply_transform, make_options

__all__ = [
    "AotConverter",
    "ConfigError",
    "ConvertArgs",
    "ConvertResult",
    "PlannedModel",
    "TransformRule",
    "load_convert_args",
]


class TransformRule(pydantic.BaseModel):
    """One entry of `transforms:`: a registered transform's NAME and its options."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    name: str
    options: dict[str, Any] | None = None


class PatchBased(pydantic.BaseModel):
    """`patch_based:` run the first layers tile by tile (docs/memory_planner.md, "Patch-based inference")."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    # How many leading layers form the stage ("auto": the count of smallest arena).
    stages: Literal["auto"] | pydantic.PositiveInt = "auto"
    # The grid over the stage's output: n (n x n tiles), [rows, columns], or "auto" (as stages).
    tiles: (
        Literal["auto"] | Annotated[int, pydantic.Field(ge=2)] | tuple[pydantic.PositiveInt, pydantic.PositiveInt]
    ) = "auto"
    # The automatic choices keep the tiles' extra instructions (estimated by `opbridge analyze`'s fitted
    # costs; the recomputed MACs where there is no estimate) within this fraction of the model's.
    max_overhead: float = pydantic.Field(0.2, ge=0)


SECTION_NAME = re.compile(r"[A-Za-z0-9_.$]{1,64}")


class ConvertArgs(pydantic.BaseModel):
    """Settings of one conversion; YAML config files use the same keys."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    # A .tflite, .onnx or .pt2 file, or a torch.export.ExportedProgram (Python API only).
    model: Annotated[Any, pydantic.Field(json_schema_extra={"type": "string"})]
    # How the int8 convolutions and linears of PT2E programs rescale (docs/pytorch.md): "tflite", TFLite
    # Micro's fixed-point multipliers (CMSIS-NN's arithmetic and fastest kernels; within one int8 step
    # of torch), or "pytorch", float32 scales rounded half to even, as torch's convert_pt2e model.
    torch_int8_arithmetic: Literal["tflite", "pytorch"] = "tflite"
    # How the int8 convolutions and matrix products of ONNX models (QLinear ops, QDQ groups) rescale:
    # "onnx", float32 scales rounded half to even, bit-exact with onnxruntime (portable C kernels on the
    # MCUs); or "tflite", TFLite Micro's fixed-point multipliers, the Helium and DSP kernels, within one
    # int8 step of onnxruntime (docs/onnx.md, "int8 arithmetic").
    onnx_int8_arithmetic: Literal["onnx", "tflite"] = "onnx"
    # The largest value (bytes) an ONNX model's constant subgraph (a ConstantOfShape of weights, shape
    # arithmetic) is folded into when the model is read; a larger one stays a node, and is refused with its
    # size when no converter takes it (docs/onnx.md, "Constant subgraphs"). The default is 64 MiB.
    onnx_max_folded_bytes: int = pydantic.Field(64 * 1024 * 1024, ge=0)
    output_dir: pathlib.Path
    prefix: str = "model"
    arena_alignment: int = pydantic.Field(DEFAULT_ALIGNMENT, ge=1, le=64)
    # RAM budget: conversion fails, naming the peak step and what is live there, above it.
    max_arena_bytes: int | None = pydantic.Field(None, ge=0)
    # Linker sections for the static arena (e.g. ".dtcm.arena") and the constant tables (e.g. ".flash.weights").
    arena_section: str | None = None
    constants_section: str | None = None
    # Work the exact placement search may do when no heuristic reaches the bound (0: heuristics only).
    plan_search_budget: int = pydantic.Field(DEFAULT_SEARCH_BUDGET, ge=0)
    # Element-wise operators may write over an input that dies at them (OperatorDefinition.in_place),
    # and producers write straight into their slice of a CONCATENATION's output (output_slices).
    in_place: bool = True
    # "memory": run the nodes in the order of smallest peak memory (graphs with branches); "file": as written.
    schedule: Literal["memory", "file"] = "memory"
    # Opt-in: the first layers run tile by tile so their large activations never exist whole.
    patch_based: PatchBased | None = None
    plan_json: pathlib.Path | None = None  # default: OUTPUT_DIR/plan.json
    bundle_kernels: bool = True  # copy cc/kernels into OUTPUT_DIR/kernels (Bazel links them instead)
    # Write OUTPUT_DIR/CMakeLists.txt (docs/integration.md); aot_model does not: a cc_library takes the folder.
    cmake_lists: bool = True
    golden_test: pathlib.Path | None = None  # also write a golden test program here
    # Compute the module's worst-case stack on the Cortex-M55 and M4 with arm-none-eabi-gcc (printed, and
    # in plan.json's "stack"; docs/kernels.md, "Stack"). The command line turns it on unless
    # --no-stack-bound (aot_model passes that); off by default here, for the API and tests.
    stack_bound: bool = False
    golden_cases: int = pydantic.Field(20, ge=1, le=1000)
    golden_seed: int = DEFAULT_SEED
    # Attribute rules, applied in order: [{type: CONV_2D | "*", attributes: {...}}].
    operators: tuple[OperatorRule, ...] = ()
    # Graph rewrites to run, in order: [{name: ..., options: {...}}].
    transforms: tuple[TransformRule, ...] = ()
    # Run the built-in graph passes first (docs/graph_passes.md: QDQ islands, layout, reshapes, pad folding,
    # activation fusion; bit-exact but the QDQ islands, within one int8 step). false: the graph as the
    # frontend wrote it.
    graph_passes: bool = True
    # The layout of the module's 3-D and 4-D inputs. "as-model": the model's own (NCHW for ONNX and
    # PyTorch, NHWC for LiteRT). "nhwc": channels last (NHWC, NWC), as cameras and audio front ends
    # give them: an ONNX or PyTorch model's inputs are transposed once, and the layout pass removes the
    # transpose the model had into NHWC (docs/graph_passes.md, "Input layout"). LiteRT models are NHWC already.
    input_layout: Literal["as-model", "nhwc"] = "as-model"

    @classmethod
    def from_yaml(cls, path: pathlib.Path | str) -> "ConvertArgs":
        """Settings from a YAML file (unknown keys are errors naming the nearest valid one)."""
        return load_convert_args(pathlib.Path(path), {})

    @pydantic.field_validator("model", mode="before")
    @classmethod
    def _model_is_a_path_or_a_program(cls, value: Any) -> Any:
        if isinstance(value, str | pathlib.PurePath):
            return pathlib.Path(value)
        if is_exported_program(value):
            return value
        raise ValueError(
            f"model must be the path of a .tflite, .onnx or .pt2 file or a torch.export.ExportedProgram, "
            f"got {type(value).__name__}"
        )

    @property
    def model_name(self) -> str:
        """The model file's name, or "ExportedProgram" (for messages and reports)."""
        return self.model.name if isinstance(self.model, pathlib.Path) else "ExportedProgram"

    @pydantic.field_validator("prefix")
    @classmethod
    def _prefix_is_a_c_identifier(cls, value: str) -> str:
        check_prefix(value)
        return value

    @pydantic.field_validator("arena_section", "constants_section")
    @classmethod
    def _section_is_a_linker_section_name(cls, value: str | None) -> str | None:
        if value is not None and not SECTION_NAME.fullmatch(value):
            raise ValueError(
                f"{value!r} is not a linker section name: use letters, digits, '.', '_' and '$' (e.g. '.dtcm.arena')"
            )
        return value

    @pydantic.model_validator(mode="after")
    def _sections_differ(self) -> "ConvertArgs":
        if self.arena_section is not None and self.arena_section == self.constants_section:
            raise ValueError(
                f"arena_section and constants_section are both {self.arena_section!r}: the arena is writable and the "
                "constants are not, so they cannot share a section; name two sections"
            )
        return self

    @pydantic.field_validator("arena_alignment")
    @classmethod
    def _alignment_is_a_power_of_two(cls, value: int) -> int:
        if value & (value - 1):
            raise ValueError(f"arena_alignment must be a power of two, got {value}")
        return value


def load_convert_args(config_path: pathlib.Path | None, overrides: dict[str, Any]) -> ConvertArgs:
    """ConvertArgs from a YAML file, with command-line `overrides` on top."""
    settings: dict[str, Any] = {}
    if config_path is not None:
        try:
            loaded = yaml.safe_load(config_path.read_text())
        except OSError as error:
            raise ConfigError(f"cannot read config {config_path}: {error.strerror}", hint="check the path") from None
        except yaml.YAMLError as error:
            raise ConfigError(f"{config_path} is not valid YAML: {error}", hint="fix the YAML syntax") from None
        if loaded is not None and not isinstance(loaded, dict):
            raise ConfigError(f"{config_path}: expected a mapping of settings, got {type(loaded).__name__}")
        settings.update(loaded or {})
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(settings.get(key), dict):
            settings[key] = {**settings[key], **value}  # a group of settings: the config's, with the overrides on top
        elif value is not None:
            settings[key] = value
    where = f" in {config_path}" if config_path else ""
    _check_keys(settings, list(ConvertArgs.model_fields), "", where)
    if isinstance(settings.get("patch_based"), dict):
        _check_keys(settings["patch_based"], list(PatchBased.model_fields), "patch_based.", where)
    try:
        return ConvertArgs(**settings)
    except pydantic.ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        raise ConfigError(
            f"invalid settings: {problems}", hint="see ConvertArgs in python/opbridge/converter.py"
        ) from None


def _check_keys(settings: dict[str, Any], valid: list[str], group: str, where: str) -> None:
    """Unknown keys are errors naming the nearest valid one."""
    for key in settings:
        if key not in valid:
            raise ConfigError(
                f"unknown setting '{group}{key}'{where}",
                hint=nearest(str(key), valid, prefix=group) or f"valid settings: {', '.join(valid)}",
            )


@dataclasses.dataclass(frozen=True)
class PlannedModel:
    """A model read, checked, scheduled, resolved and planned; nothing written."""

    graph: Graph  # the model as the reference runs it (scheduled, whole)
    module_graph: Graph  # as the module runs it (its first layers one patch stage, with patch_based)
    operators: ResolvedGraph  # one AotOperator per node of module_graph
    plan: MemoryPlan
    schedule_note: str = ""
    patch_note: str = ""
    import_notes: tuple[str, ...] = ()  # what the frontend did to the file (Graph.notes)
    pass_effects: tuple[PassEffect, ...] = ()  # what each built-in graph pass removed


@dataclasses.dataclass(frozen=True)
class ConvertResult:
    graph: Graph
    plan: MemoryPlan
    module: EmittedModule
    schedule_note: str = ""  # how the nodes were reordered, if they were
    patch_note: str = ""  # the patch-based stage chosen (patch_based), or why none
    import_notes: tuple[str, ...] = ()  # an ONNX opset upgraded, constant subgraphs folded
    pass_effects: tuple[PassEffect, ...] = ()  # what each built-in graph pass removed
    stack_bounds: tuple[StackBound, ...] = ()  # per core, when computed (ConvertArgs.stack_bound)

    def summary(self) -> str:
        constants = sum(t.bytes for t in self.graph.tensors if t.is_constant)
        operators = ", ".join(sorted({n.op_type for n in self.graph.nodes}))
        return (
            f"converted {len(self.graph.nodes)} nodes ({operators}) into {self.module.directory}\n"
            f"arena: {self.plan.arena_bytes} bytes (liveness lower bound {self.plan.lower_bound_bytes} bytes, "
            f"placed by {self.plan.strategy}); "
            f"constants: {constants} bytes"
            + "".join(
                f"\n{note}"
                for note in (
                    *self.import_notes,
                    passes_note(self.pass_effects),
                    remaining_islands_note(self.graph),
                    self.schedule_note,
                    self.patch_note,
                    *(bound.summary() for bound in self.stack_bounds),
                )
                if note
            )
        )


class AotConverter:
    """Converts one model. `registry_context` defaults to the built-ins."""

    def __init__(
        self,
        config: ConvertArgs,
        registry_context: RegistryContext | OperatorRegistry | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.config = config
        self.progress = progress if progress is not None else Progress.silent()
        self.schedule_note = ""  # set by convert() when it reorders the nodes
        self.registry_context = (
            default_registry_context() if registry_context is None else as_registry_context(registry_context)
        )

    def transform(self, graph: Graph) -> Graph:
        transforms = self.registry_context.transforms
        for position, rule in enumerate(self.config.transforms):
            transform_class = transforms.get(rule.name)
            if transform_class is None:
                raise ConfigError(
                    f"transforms[{position}]: unknown transform {rule.name!r}",
                    hint=nearest(rule.name, transforms.keys())
                    or f"registered transforms: {', '.join(transforms.keys()) or 'none'}",
                )
            graph = apply_transform(
                transform_class(make_options(transform_class, rule.options)), graph, self.registry_context
            )
        return graph

    def schedule(self, graph: Graph) -> Graph:
        """The graph in the order of smallest arena (schedule.best_schedule proposes an
        order; both are planned in full, in-place outputs and scratch included)."""
        operators = self.registry_context.operators
        aliasing = [node.index for node in graph.nodes if aliases_input(operators.get(node.op_type))]
        schedule = best_schedule(graph, aliasing_nodes=aliasing)
        if not schedule.complete:
            self.schedule_note = "schedule: the order search reached its budget; the model's order is kept"
            return graph
        if schedule.peak_bytes >= schedule.file_peak_bytes:
            return graph
        candidate = reorder(graph, schedule.order)
        before, after = self._arena_bytes(graph), self._arena_bytes(candidate)
        if after >= before:
            return graph
        self.schedule_note = (
            f"schedule: nodes reordered to shrink the arena from {before} to {after} bytes "
            "(schedule: file keeps the model's order)"
        )
        return candidate

    def patch(self, graph: Graph, resolved: ResolvedGraph) -> tuple[Graph, ResolvedGraph, PatchStage | None, str]:
        """The graph with its first layers run as a patch stage (config patch_based), the stage, and a note."""
        config = self.config
        settings = config.patch_based
        if settings is None:
            return graph, resolved, None, ""

        def estimate(candidate: Graph, operators: ResolvedGraph) -> int:
            return arena_lower_bound(
                candidate, alignment=config.arena_alignment, **operators.memory_arguments(config.in_place)
            )

        # Imported here: opbridge.analysis imports this module.
        from opbridge.analysis.instruction_costs import layer_prices, load_instruction_costs

        prices = layer_prices(graph, resolved.operators, self.registry_context.operators, load_instruction_costs())
        instruction_overhead = InstructionOverhead(graph, prices)
        stage, note = choose_patch_stage(
            graph, resolved, settings.stages, settings.tiles, settings.max_overhead, estimate, instruction_overhead
        )
        if stage is None:
            return graph, resolved, None, note
        staged, staged_resolved = apply_patch_stage(graph, resolved, stage, config.prefix)
        return staged, staged_resolved, stage, note

    def _arena_bytes(self, graph: Graph) -> int:
        config = self.config
        resolved = resolve_operators(graph, self.registry_context, config.prefix, config.operators)
        return plan_graph(graph, resolved, config.arena_alignment, config, enforce_budget=False).arena_bytes

    def plan(self) -> PlannedModel:
        """Everything but writing files: the model read, checked, rewritten, scheduled, resolved
        and planned (what `opbridge analyze` reports). Plans past `max_arena_bytes` instead of
        raising, so the report shows how far over the budget the model is."""
        return self._plan(enforce_budget=False)

    def _plan(self, *, enforce_budget: bool) -> PlannedModel:
        config = self.config
        context = self.registry_context
        progress = self.progress
        progress.stage(f"reading {config.model_name}")
        graph = load_model(
            config.model,
            context,
            torch_int8_arithmetic=config.torch_int8_arithmetic,
            onnx_int8_arithmetic=config.onnx_int8_arithmetic,
            onnx_max_folded_bytes=config.onnx_max_folded_bytes,
        )
        import_notes = graph.notes
        progress.stage("checking every node against its schema")
        validate_graph(graph, context.operators)  # every node against its schema, before any rewrite
        if config.input_layout == "nhwc" and model_format(config.model) in ("onnx", "torch"):
            graph = channels_last_inputs(graph)
        pass_effects: tuple[PassEffect, ...] = ()
        if config.graph_passes:
            progress.stage("rewriting the graph (layout, reshapes, pads, activations)")
            graph, pass_effects = run_graph_passes(graph, context)
        graph = self.transform(graph)
        if config.schedule == "memory":
            progress.stage("choosing the node order")
            graph = self.schedule(graph)
        resolved = resolve_operators(graph, context, config.prefix, config.operators)
        # The reference (and so the golden outputs) runs the model whole; the module may run its first layers as tiles.
        if config.patch_based is not None:
            progress.stage("choosing a patch-based stage")
        module_graph, module_operators, stage, patch_note = self.patch(graph, resolved)
        progress.stage("planning the arena")
        plan = plan_graph(module_graph, module_operators, config.arena_alignment, config, enforce_budget=enforce_budget)
        if stage is not None:
            plan = dataclasses.replace(plan, patch_stage=stage.to_dict())
        return PlannedModel(
            graph=graph,
            module_graph=module_graph,
            operators=module_operators,
            plan=plan,
            schedule_note=self.schedule_note,
            patch_note=patch_note,
            import_notes=import_notes,
            pass_effects=pass_effects,
        )

    def stack_bounds(self, planned: PlannedModel) -> tuple[StackBound, ...]:
        """The worst-case stack of `planned`'s module per core, from its C written into a temporary folder
        (what `opbridge analyze` reports; convert computes it from the module it writes)."""
        with tempfile.TemporaryDirectory(prefix="opbridge-stack-module-") as scratch:
            module = emit_module(
                planned.module_graph,
                planned.operators.operators,
                planned.plan,
                self.config.prefix,
                pathlib.Path(scratch) / self.config.prefix,
                bundle_kernels=False,
                cmake_lists=False,
            )
            return emitted_stack_bounds(module, self.config.prefix, planned.operators.operators, bundled=False)

    def convert(self) -> ConvertResult:
        config = self.config
        progress = self.progress
        # Every path we will write, before any work: a bad one must not leave a half-written module.
        plan_path = config.plan_json if config.plan_json is not None else config.output_dir / "plan.json"
        check_output_directory(config.output_dir, "output_dir", "-o")
        if config.cmake_lists:
            check_cmake_lists_is_ours(config.output_dir)
        check_output_file(plan_path, "plan_json", "--plan-json", "plan.json")
        if config.golden_test is not None:
            check_output_file(config.golden_test, "golden_test", "--golden-test", f"{config.prefix}_golden_test.c")
        # Admission checks and the plan first, then the golden outputs, then files: a failing
        # reference must not leave a new module beside an old golden test.
        planned = self._plan(enforce_budget=True)
        golden = None
        if config.golden_test is not None:
            golden = golden_test_source(
                planned.graph,
                self.registry_context.operators,
                config.prefix,
                config.golden_cases,
                config.golden_seed,
                on_case=lambda done: progress.advance("golden outputs", done, config.golden_cases),
            )
        progress.stage(f"writing {config.output_dir}")
        with writing_to(config.output_dir, "output_dir", "-o"):
            module = emit_module(
                planned.module_graph,
                planned.operators.operators,
                planned.plan,
                config.prefix,
                config.output_dir,
                config.bundle_kernels,
                config.cmake_lists,
            )
        stack_bounds: tuple[StackBound, ...] = ()
        plan_text = planned.plan.to_json(planned.module_graph)
        if config.stack_bound:
            progress.stage("computing the stack bound (arm-none-eabi-gcc -fstack-usage)")
            stack_bounds = emitted_stack_bounds(
                module, config.prefix, planned.operators.operators, config.bundle_kernels
            )
            plan_text = with_stack_bounds(plan_text, stack_bounds)
        with writing_to(plan_path, "plan_json", "--plan-json"):
            plan_path.parent.mkdir(parents=True, exist_ok=True)
            plan_path.write_text(plan_text + "\n")
        if config.golden_test is not None and golden is not None:
            with writing_to(config.golden_test, "golden_test", "--golden-test"):
                config.golden_test.parent.mkdir(parents=True, exist_ok=True)
                config.golden_test.write_text(golden)
        progress.done()
        return ConvertResult(
            graph=planned.module_graph,
            plan=planned.plan,
            module=module,
            schedule_note=planned.schedule_note,
            patch_note=planned.patch_note,
            import_notes=planned.import_notes,
            pass_effects=planned.pass_effects,
            stack_bounds=stack_bounds,
        )
