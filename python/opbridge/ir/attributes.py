# SPDX-License-Identifier: Apache-2.0
"""One walk over an op's attributes, used both to serialize and to deserialize them.

`visit_attributes(attributes_class, attributes, visitor)` calls
`visitor.on_attribute(spec, value)` for each attribute in declaration order
and builds a new attributes object from what the visitor returns. A writer
records each value and returns it unchanged; a reader ignores the value it is
shown and returns the one it decodes. So the two directions cannot drift
apart: there is one list of attributes, the attribute dataclass.
"""

from typing import Any, Protocol

from opbridge.errors import ModelFormatError
from opbridge.ir.attribute_specs import AttributeSpec, AttributeType, attribute_specs


class AttributeVisitor(Protocol):
    def on_attribute(self, spec: AttributeSpec, value: Any) -> Any:
        """Sees one attribute (its current value, or the default when reading) and returns its value."""
        ...


def visit_attributes(attributes_class: type | None, attributes: Any, visitor: AttributeVisitor) -> Any:
    """Walks every attribute of `attributes` (None: defaults) and rebuilds the object from the visitor's answers."""
    if attributes_class is None:
        return None
    values = {}
    for spec in attribute_specs(attributes_class):
        current = (
            getattr(attributes, spec.name) if attributes is not None else (None if spec.required else spec.default)
        )
        values[spec.name] = visitor.on_attribute(spec, current)
    return attributes_class(**values)


def to_plain(spec: AttributeSpec, value: Any) -> Any:
    """A JSON-ready value: enums by member name, tuples as lists."""
    if spec.type is AttributeType.ENUM:
        return value.name
    if isinstance(value, tuple):
        return list(value)
    return value


def from_plain(spec: AttributeSpec, plain: Any, where: str) -> Any:
    """The attribute value of a JSON value, checked against the attribute's kind."""

    def bad(expected: str) -> ModelFormatError:
        return ModelFormatError(f"{where}: attribute {spec.name!r} = {plain!r} is not {expected}")

    kind = spec.type
    if kind is AttributeType.ENUM:
        assert spec.enum_class is not None
        members = spec.enum_class.__members__
        if not isinstance(plain, str) or plain not in members:
            raise bad(f"one of {', '.join(members)}")
        return members[plain]
    if kind is AttributeType.BOOL:
        if not isinstance(plain, bool):
            raise bad("true or false")
        return plain
    if kind is AttributeType.INT:
        if not isinstance(plain, int) or isinstance(plain, bool):
            raise bad("an integer")
        return plain
    if kind is AttributeType.FLOAT:
        if not isinstance(plain, int | float) or isinstance(plain, bool):
            raise bad("a number")
        return float(plain)
    if kind is AttributeType.STRING:
        if not isinstance(plain, str):
            raise bad("a string")
        return plain
    if not isinstance(plain, list):
        raise bad("a list")
    element = {AttributeType.INTS: AttributeType.INT, AttributeType.FLOATS: AttributeType.FLOAT}.get(
        kind, AttributeType.STRING
    )
    item_spec = AttributeSpec(spec.name, element, default=None)
    return tuple(from_plain(item_spec, item, where) for item in plain)


class AttributeWriter:
    """Records each attribute as a JSON-ready value."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def on_attribute(self, spec: AttributeSpec, value: Any) -> Any:
        self.values[spec.name] = to_plain(spec, value)
        return value


class AttributeReader:
    """Decodes attributes from JSON-ready values; absent ones take their defaults, unknown ones are errors."""

    def __init__(self, values: dict[str, Any], where: str) -> None:
        self.values = values
        self.where = where
        self.seen: set[str] = set()

    def on_attribute(self, spec: AttributeSpec, value: Any) -> Any:
        self.seen.add(spec.name)
        if spec.name not in self.values:
            if spec.required:
                raise ModelFormatError(f"{self.where}: required attribute {spec.name!r} is missing")
            return spec.default
        return from_plain(spec, self.values[spec.name], self.where)

    def check_all_read(self) -> None:
        unknown = sorted(set(self.values) - self.seen)
        if unknown:
            raise ModelFormatError(
                f"{self.where}: unknown attributes {unknown}", hint=f"known: {', '.join(sorted(self.seen)) or 'none'}"
            )


def attributes_to_dict(attributes_class: type | None, attributes: Any) -> dict[str, Any]:
    writer = AttributeWriter()
    visit_attributes(attributes_class, attributes, writer)
    return writer.values


def attributes_from_dict(attributes_class: type | None, values: dict[str, Any], where: str) -> Any:
    if attributes_class is None:
        if values:
            raise ModelFormatError(f"{where}: the operator takes no attributes, got {sorted(values)}")
        return None
    reader = AttributeReader(values, where)
    result = visit_attributes(attributes_class, None, reader)
    reader.check_all_read()
    return result
