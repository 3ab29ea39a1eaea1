"""The operators known to one conversion, by canonical key."""

from collections.abc import Iterable, Iterator

from opbridge.ops.definition import OperatorDefinition


class OperatorRegistry:
    """Operators by op type, and by LiteRT builtin code. Frozen once built."""

    def __init__(self, definitions: Iterable[OperatorDefinition] = ()) -> None:
        self._by_type: dict[str, OperatorDefinition] = {}
        self._by_litert_code: dict[int, OperatorDefinition] = {}
        self._frozen = False
        for definition in definitions:
            self.register(definition)

    def register(self, definition: OperatorDefinition, *, overwrite: bool = False) -> None:
        if self._frozen:
            raise RuntimeError(f"registry is frozen; cannot register {definition.op_type}")
        if definition.op_type in self._by_type and not overwrite:
            raise ValueError(f"operator {definition.op_type} is already registered; pass overwrite=True to replace it")
        self._by_type[definition.op_type] = definition
        if definition.litert_builtin_code is not None:
            self._by_litert_code[definition.litert_builtin_code] = definition

    def freeze(self) -> "OperatorRegistry":
        self._frozen = True
        return self

    def get(self, op_type: str) -> OperatorDefinition | None:
        return self._by_type.get(op_type)

    def by_litert_code(self, code: int) -> OperatorDefinition | None:
        return self._by_litert_code.get(code)

    def __iter__(self) -> Iterator[OperatorDefinition]:
        return iter(self._by_type.values())

    def __contains__(self, op_type: object) -> bool:
        return op_type in self._by_type
