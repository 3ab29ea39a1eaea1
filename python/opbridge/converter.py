"""The ahead-of-time converter: a LiteRT model in, a C module and its memory plan out.

result = AotConverter(ConvertArgs(model="kws.tflite", output_dir="out", prefix="kws")).convert()
result.plan.arena_bytes
"""

import dataclasses
import difflib
import pathlib
from typing import Any

import pydantic
import yaml

from opbridge.backends.c.emitter import EmittedModule, check_prefix, emit_module
from opbridge.backends.c.golden import golden_test_source
from opbridge.backends.c.lowering import scratch_requirements
from opbridge.backends.c.memory_plan import DEFAULT_ALIGNMENT, MemoryPlan, plan_memory
from opbridge.errors import OpbridgeError
from opbridge.frontends.litert import load_litert_model
from opbridge.ir import Graph
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.registry import OperatorRegistry
from opbridge.testing.inputs import DEFAULT_SEED


class ConfigError(OpbridgeError):
    """A conversion setting is unknown or invalid."""


class ConvertArgs(pydantic.BaseModel):
    """Settings of one conversion; YAML config files use the same keys."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    model: pathlib.Path
    output_dir: pathlib.Path
    prefix: str = "model"
    arena_alignment: int = pydantic.Field(DEFAULT_ALIGNMENT, ge=1, le=64)
    plan_json: pathlib.Path | None = None  # default: OUTPUT_DIR/plan.json
    bundle_kernels: bool = True  # copy cc/kernels into OUTPUT_DIR/kernels (Bazel links them instead)
    golden_test: pathlib.Path | None = None  # also write a golden test program here
    golden_cases: int = pydantic.Field(20, ge=1, le=1000)
    golden_seed: int = DEFAULT_SEED

    @pydantic.field_validator("prefix")
    @classmethod
    def _prefix_is_a_c_identifier(cls, value: str) -> str:
        check_prefix(value)
        return value

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
    settings.update({key: value for key, value in overrides.items() if value is not None})
    valid = list(ConvertArgs.model_fields)
    for key in settings:
        if key not in valid:
            nearest = difflib.get_close_matches(str(key), valid, n=1)
            where = f" in {config_path}" if config_path else ""
            raise ConfigError(
                f"unknown setting {key!r}{where}",
                hint=f"did you mean {nearest[0]!r}?" if nearest else f"valid settings: {', '.join(valid)}",
            )
    try:
        return ConvertArgs(**settings)
    except pydantic.ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        raise ConfigError(
            f"invalid settings: {problems}", hint="see ConvertArgs in python/opbridge/converter.py"
        ) from None


@dataclasses.dataclass(frozen=True)
class ConvertResult:
    graph: Graph
    plan: MemoryPlan
    module: EmittedModule

    def summary(self) -> str:
        constants = sum(t.bytes for t in self.graph.tensors if t.is_constant)
        operators = ", ".join(sorted({n.op_type for n in self.graph.nodes}))
        return (
            f"converted {len(self.graph.nodes)} nodes ({operators}) into {self.module.directory}\n"
            f"arena: {self.plan.arena_bytes} bytes (liveness lower bound {self.plan.lower_bound_bytes} bytes); "
            f"constants: {constants} bytes"
        )


class AotConverter:
    def __init__(self, config: ConvertArgs, registry: OperatorRegistry | None = None) -> None:
        self.config = config
        self.registry = registry if registry is not None else build_builtin_registry()

    def convert(self) -> ConvertResult:
        config = self.config
        graph = load_litert_model(config.model, self.registry)
        plan = plan_memory(
            graph, alignment=config.arena_alignment, scratch_bytes=scratch_requirements(graph, self.registry)
        )
        module = emit_module(graph, self.registry, plan, config.prefix, config.output_dir, config.bundle_kernels)
        plan_path = config.plan_json if config.plan_json is not None else config.output_dir / "plan.json"
        plan_path.parent.mkdir(parents=True, exist_ok=True)
        plan_path.write_text(plan.to_json(graph) + "\n")
        if config.golden_test is not None:
            source = golden_test_source(graph, self.registry, config.prefix, config.golden_cases, config.golden_seed)
            config.golden_test.parent.mkdir(parents=True, exist_ok=True)
            config.golden_test.write_text(source)
        return ConvertResult(graph=graph, plan=plan, module=module)
