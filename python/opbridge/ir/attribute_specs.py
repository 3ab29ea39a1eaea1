# SPDX-License-Identifier: Apache-2.0
"""What an operator's attribute class declares, read from its dataclass fields: each attribute's name,
kind (AttributeType), default and whether it is required. The IR serializer and the schemas share it."""

import dataclasses
import enum
import typing
from typing import Any

from opbridge.errors import SchemaError


class AttributeType(enum.Enum):
    """Attribute kinds; ONNX has no BOOL or ENUM, so they export as INT and STRING."""

    INT = "int"
    FLOAT = "float"
    STRING = "string"
    BOOL = "bool"
    ENUM = "enum"  # a Python enum.Enum, stored by member name
    INTS = "ints"
    FLOATS = "floats"
    STRINGS = "strings"


_REQUIRED = dataclasses.MISSING


@dataclasses.dataclass(frozen=True)
class AttributeSpec:
    """One attribute: its kind, its default (none: required) and, for ENUM, its enum class."""

    name: str
    type: AttributeType
    default: Any = _REQUIRED
    doc: str = ""
    enum_class: type[enum.Enum] | None = None

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED


def _attribute_type(annotation: Any, owner: str, name: str) -> tuple[AttributeType, type[enum.Enum] | None]:
    origin = typing.get_origin(annotation)
    if origin is tuple:
        element = typing.get_args(annotation)[0]
        by_element = {int: AttributeType.INTS, float: AttributeType.FLOATS, str: AttributeType.STRINGS}
        if element in by_element:
            return by_element[element], None
    elif isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return AttributeType.ENUM, annotation
        by_type = {
            bool: AttributeType.BOOL,
            int: AttributeType.INT,
            float: AttributeType.FLOAT,
            str: AttributeType.STRING,
        }
        if annotation in by_type:
            return by_type[annotation], None
    raise SchemaError(
        f"{owner}.{name}: attribute type {annotation!r} is not supported",
        hint="use int, float, str, bool, an enum.Enum, or tuple[int, ...] / tuple[float, ...] / tuple[str, ...]",
    )


def attribute_specs(attributes_class: type | None) -> tuple[AttributeSpec, ...]:
    """The attributes of an op, read from its frozen attribute dataclass (field order kept)."""
    if attributes_class is None:
        return ()
    if not dataclasses.is_dataclass(attributes_class):
        raise SchemaError(
            f"attributes class {attributes_class.__qualname__} is not a dataclass",
            hint="declare the op's attributes with @dataclasses.dataclass(frozen=True)",
        )
    hints = typing.get_type_hints(attributes_class)
    specs = []
    for field in dataclasses.fields(attributes_class):
        kind, enum_class = _attribute_type(hints[field.name], attributes_class.__qualname__, field.name)
        default = field.default
        if default is _REQUIRED and field.default_factory is not _REQUIRED:
            default = field.default_factory()
        specs.append(AttributeSpec(field.name, kind, default, field.metadata.get("doc", ""), enum_class))
    return tuple(specs)
