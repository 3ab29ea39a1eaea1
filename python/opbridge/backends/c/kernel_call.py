# SPDX-License-Identifier: Apache-2.0
"""A kernel call as data: the function, its const parameter struct and its arguments.

A built-in operator's `emit_c` returns one KernelCall in its NodeCode (NodeCode.call). Code
that runs the kernel on other sizes or other buffers (a patch stage's tiles, an in-place
depthwise's rows) reads and changes the call's fields instead of its text; the C is written
from these values in one place (render_definition, render_statement). The field names
and order are checked against the typedefs in cc/kernels/*.h by kernel_call_test.py.
"""

import dataclasses
from collections.abc import Iterable, Sequence

import numpy as np


@dataclasses.dataclass(frozen=True)
class CExpression:
    """A value written as is: the symbol of a const array, NULL, an enumerator, a macro."""

    text: str


@dataclasses.dataclass(frozen=True)
class FloatValue:
    """A finite float32 constant, written so that it reads back to the same bits (1.5f)."""

    value: float


@dataclasses.dataclass(frozen=True)
class ArrayValue:
    """An array member's initializer: {1, 2, 3}."""

    values: tuple["Value", ...]


@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    value: "Value"


@dataclasses.dataclass(frozen=True)
class StructValue:
    """A struct member's initializer, written positionally ({a, b, c}) in field order, or with
    designators ({.a = a, .b = b}) when `designated`, one a line when also `multiline`."""

    c_type: str
    fields: tuple[Field, ...]
    designated: bool = False
    multiline: bool = False

    def field(self, name: str) -> Field:
        return _field(self.c_type, self.fields, name)


Value = int | CExpression | FloatValue | ArrayValue | StructValue


@dataclasses.dataclass(frozen=True)
class ParamStruct:
    """A kernel's `static const <c_type> <symbol> = {.field = value, ...};`, one field a line
    (on one line when `one_line`)."""

    c_type: str
    symbol: str
    fields: tuple[Field, ...]
    one_line: bool = False

    def field(self, name: str) -> Field:
        return _field(self.c_type, self.fields, name)

    def has_fields(self, *names: str) -> bool:
        present = {field.name for field in self.fields}
        return all(name in present for name in names)

    def replace(self, **values: Value) -> "ParamStruct":
        """A copy with the named fields' values changed (each must exist)."""
        for name in values:
            self.field(name)
        fields = tuple(Field(f.name, values.get(f.name, f.value)) for f in self.fields)
        return dataclasses.replace(self, fields=fields)


@dataclasses.dataclass(frozen=True)
class KernelCall:
    """`status = function(&params.symbol, arguments...);` (no parameter struct: `function(arguments...)`).

    arguments are C expressions (tensor pointers from EmitContext, scratch pointers) or integers (sizes)."""

    function: str
    params: ParamStruct | None
    arguments: tuple[str | int, ...]

    def replace_arguments(self, replacements: dict[str, str]) -> "KernelCall":
        """A copy with the arguments equal to a key replaced by its value (a tensor pointer by a buffer)."""
        arguments = tuple(replacements.get(a, a) if isinstance(a, str) else a for a in self.arguments)
        return dataclasses.replace(self, arguments=arguments)


def _field(c_type: str, fields: Sequence[Field], name: str) -> Field:
    for field in fields:
        if field.name == name:
            return field
    raise KeyError(f"{c_type} has no field {name!r}")


def float_literal(value: float) -> str:
    """A float32 value as a C float constant that reads back to the same bits."""
    single = np.float32(value)
    if not np.isfinite(single):
        raise ValueError(f"{value} is not a finite float32")
    return f"{float(single)!r}f"


def render_value(value: Value, indent: str = "") -> str:
    """`value` as C; `indent` is the indentation of the line it starts on (for multiline structs)."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, CExpression):
        return value.text
    if isinstance(value, FloatValue):
        return float_literal(value.value)
    if isinstance(value, ArrayValue):
        return "{" + ", ".join(render_value(v) for v in value.values) + "}"
    if isinstance(value, StructValue):
        if value.designated and value.multiline:
            lines = [f"{indent}    .{f.name} = {render_value(f.value, indent + '    ')},\n" for f in value.fields]
            return "{\n" + "".join(lines) + indent + "}"
        if value.designated:
            return "{" + ", ".join(f".{f.name} = {render_value(f.value)}" for f in value.fields) + "}"
        return "{" + ", ".join(render_value(f.value) for f in value.fields) + "}"
    raise TypeError(f"not a parameter value: {value!r}")


def render_definition(params: ParamStruct) -> str:
    """The struct's file-scope definition."""
    if params.one_line:
        value = render_value(StructValue(params.c_type, params.fields, designated=True))
        return f"static const {params.c_type} {params.symbol} = {value};"
    lines = [f"static const {params.c_type} {params.symbol} = {{"]
    lines += [f"    .{field.name} = {render_value(field.value, '    ')}," for field in params.fields]
    return "\n".join([*lines, "};"])


def render_statement(call: KernelCall, params_expression: str | None = None) -> str:
    """The call statement; params_expression replaces &symbol (a local copy of the struct: "&params")."""
    arguments = [str(int(a)) if isinstance(a, int) else a for a in call.arguments]
    if call.params is not None:
        arguments.insert(0, params_expression or f"&{call.params.symbol}")
    return f"status = {call.function}({', '.join(arguments)});"


def int_array(values: Iterable[int]) -> ArrayValue:
    return ArrayValue(tuple(int(v) for v in values))


def dims(shape: Sequence[int]) -> StructValue:
    """An opbridge_dims (NHWC) value; lower ranks are padded on the left with 1."""
    padded = (1,) * (4 - len(shape)) + tuple(int(v) for v in shape)
    if len(padded) != 4:
        raise ValueError(f"shape {tuple(shape)} has rank {len(shape)}; expected at most 4")
    names = ("batches", "height", "width", "channels")
    return StructValue("opbridge_dims", tuple(Field(n, v) for n, v in zip(names, padded, strict=True)))


def fields(**values: Value) -> tuple[Field, ...]:
    """Fields in keyword order: fields(size=4, alpha=FloatValue(0.2))."""
    return tuple(Field(name, value) for name, value in values.items())
