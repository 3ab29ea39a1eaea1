# SPDX-License-Identifier: Apache-2.0
"""The registries of one conversion: RegistryContext (the heliaAOT-compatible plugin API's name).

    operators             OperatorDefinition (schema, reference, C emitter)  by operator key
    litert_model_hooks    rewrite of the .tflite bytes before parsing       by hook name
    litert_parsers        LiteRT node -> the op's typed attributes           by operator key
    air_options           the attribute class a parser returns              by operator key
    aot_operator_classes  the AotOperator class that emits C                by operator key
    transforms            graph rewrites                                    by Transform.NAME
    opset_domains         OpsetDomain (a schema domain's versions)          by domain name
    onnx_converters       ONNX op -> opbridge nodes                          by ONNX op type
    torch_converters      torch.export node -> opbridge nodes               by str(OpOverload)
    torch_ops             an operator as a torch.library op (TorchOp)       by operator key

Operator schemas live on the definitions (`OperatorDefinition.schema`); `context.schemas()` checks them
against the domains and indexes them. `opbridge.registry.build_default_registry_context` fills one."""

import contextlib
import dataclasses
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from opbridge.keyed_registry import BUILTIN_ORIGIN, Registry
from opbridge.ops.definition import LiteRTParser, OnnxConverter, OperatorDefinition, TorchConverter
from opbridge.schemas.opsets import OpsetDomain, SchemaSet


class OperatorLookup(Protocol):
    """Operator definitions by key, as graph passes and the operation contract read them: an
    OperatorRegistry (context.operators), or any mapping of operator key to definition."""

    def get(self, key: str, /) -> OperatorDefinition | None: ...


class OperatorRegistry(Registry[OperatorDefinition]):
    """Operator definitions (reference, LiteRT code, C emitter) by operator key."""

    def __init__(self, definitions: Iterable[OperatorDefinition] = ()) -> None:
        super().__init__("operators")
        for definition in definitions:
            self.add(definition)

    def add(self, definition: OperatorDefinition, *, overwrite: bool = False) -> None:
        """Registers `definition` under its own op_type."""
        self.register(definition.op_type, definition, overwrite=overwrite)

    def freeze(self) -> "OperatorRegistry":
        super().freeze()
        return self

    def by_litert_code(self, code: int) -> OperatorDefinition | None:
        """The definition a LiteRT builtin operator code maps to (the latest
        registered, so a deliberate override of a built-in takes effect)."""
        for definition in reversed(self._values.values()):
            if definition.litert_builtin_code == code:
                return definition
        return None

    def definitions(self) -> list[OperatorDefinition]:
        return list(self._values.values())


# A customizer adds a plugin's parsers, operator classes, ... to a context.
Customizer = Callable[["RegistryContext"], None]


# Rewrites .tflite bytes before they are parsed.
ModelHook = Callable[[bytes], bytes]


@dataclasses.dataclass
class RegistryContext:
    """The registries one conversion uses (see the module docstring)."""

    operators: OperatorRegistry = dataclasses.field(default_factory=OperatorRegistry)
    litert_model_hooks: Registry[ModelHook] = dataclasses.field(default_factory=lambda: Registry("litert_model_hooks"))
    litert_parsers: Registry[LiteRTParser] = dataclasses.field(default_factory=lambda: Registry("litert_parsers"))
    air_options: Registry[type] = dataclasses.field(default_factory=lambda: Registry("air_options"))
    aot_operator_classes: Registry[type] = dataclasses.field(default_factory=lambda: Registry("aot_operator_classes"))
    transforms: Registry[type] = dataclasses.field(default_factory=lambda: Registry("transforms"))
    opset_domains: Registry[OpsetDomain] = dataclasses.field(default_factory=lambda: Registry("opset_domains"))
    onnx_converters: Registry[OnnxConverter] = dataclasses.field(default_factory=lambda: Registry("onnx_converters"))
    torch_converters: Registry[TorchConverter] = dataclasses.field(default_factory=lambda: Registry("torch_converters"))
    torch_ops: Registry[Any] = dataclasses.field(default_factory=lambda: Registry("torch_ops"))

    def schemas(self) -> SchemaSet:
        """The operators' schemas, checked against the opset domains (SchemaError if inconsistent)."""
        return SchemaSet(self.opset_domains, [(d.op_type, d.schema) for d in self.operators.definitions()])

    def registries(self) -> list[Registry[Any]]:
        return [getattr(self, field.name) for field in dataclasses.fields(self)]

    def freeze(self) -> "RegistryContext":
        for registry in self.registries():
            registry.freeze()
        return self

    @property
    def frozen(self) -> bool:
        return all(registry.frozen for registry in self.registries())

    @contextlib.contextmanager
    def registering_as(self, origin: str) -> Iterator[None]:
        """Records `origin` (e.g. a plugin's module) on everything registered inside."""
        previous = [registry._origin for registry in self.registries()]
        for registry in self.registries():
            registry._origin = origin
        try:
            yield
        finally:
            for registry, before in zip(self.registries(), previous, strict=True):
                registry._origin = before

    def operator_keys(self) -> set[str]:
        """Every operator key some registry knows."""
        return set(self.operators) | set(self.litert_parsers) | set(self.aot_operator_classes)

    def describe(self) -> str:
        """What is registered, and from where (for `opbridge plugins list`)."""
        lines = []
        for registry in self.registries():
            lines.append(f"{registry.name} ({len(registry)}):")
            by_origin: dict[str, list[str]] = {}
            for key in registry:
                by_origin.setdefault(registry.origin(key), []).append(key)
            for origin, keys in sorted(by_origin.items(), key=lambda item: (item[0] != BUILTIN_ORIGIN, item[0])):
                lines.append(f"  {origin}: {', '.join(sorted(keys))}")
        return "\n".join(lines)
