# SPDX-License-Identifier: Apache-2.0
"""Registries: values by key, with where each came from; and the operator registry.

A Registry is one extension point of a conversion (operator definitions,
parsers, C emitters, transforms, ...); `opbridge.registry.RegistryContext`
holds one of each. Registries are frozen once built.
"""

from collections.abc import Iterable

from opbridge.ops.definition import OperatorDefinition
from opbridge.registries import Registry


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
