# SPDX-License-Identifier: Apache-2.0
"""The operator registry: operator definitions by operator key (a `opbridge.registries.Registry`,
one of those `opbridge.registry_context.RegistryContext` holds), and `OperatorLookup`, what passes
read of it."""

from collections.abc import Iterable
from typing import Protocol

from opbridge.ops.definition import OperatorDefinition
from opbridge.registries import Registry


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
