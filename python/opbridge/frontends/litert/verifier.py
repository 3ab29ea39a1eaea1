# SPDX-License-Identifier: Apache-2.0
"""Verifies a LiteRT FlatBuffer's structure before the reader reads it.

The same checks as FlatBuffers' own verifier (`flatbuffers/verifier.h`), driven by the schema's tables
(schema_tables.py), with its limits: the root offset in the file and aligned; each table's offset to its
vtable in the file, the vtable even-sized, at least 4 bytes, aligned and in the file, and the table's
object in the file; each present field inside its table's object, aligned and in the file; each offset to a
table, vector or string non-zero, below 2 GiB and in the file; a vector's length times its element size in
the file; a string NUL-terminated in the file; a union's type code naming one of its tables, whose value is
then verified as that table; at most 64 tables deep and 1,000,000 tables in all. Data kept outside the
FlatBuffer (`Buffer.offset`/`size` and `Operator.large_custom_options_offset`/`size`, models over 2 GiB)
must lie in the file.

Some checks go further than FlatBuffers, as every well-formed file passes them: the vtable holds at least
its own size and the table's; the table's object lies in the file and each field inside it; an element of a
vector of tables is not a zero offset; a union's type code unknown to the schema is refused (FlatBuffers
lets it pass unverified; the reader could not read its options either); and so is a union value whose type
is NONE (FlatBuffers skips it unverified, but the generated accessors read it whatever the type says).

Then the model's contents (`check_model_contents`): at least one subgraph; subgraph 0 with outputs, with
operators unless it is an identity model (every output is one of its inputs), and with inputs unless its
operators read nothing but constants. The first problem found is a ModelFormatError naming the field by
its path (`subgraphs[0].operators[12].inputs`).
"""

import struct
from typing import Any

import tflite

from opbridge.errors import ModelFormatError
from opbridge.frontends.litert.schema_tables import SCALAR_NAMES, Field, schema

MAX_DEPTH = 64  # FlatBuffers' Verifier::Options defaults
MAX_TABLES = 1_000_000
MAX_OFFSET = 2**31 - 1  # an offset is read as a signed 32-bit value by FlatBuffers: it must not be negative
ROOT_TABLE = "Model"
HINT = "the file is damaged or truncated: copy it again, or re-export the model"

_U8 = struct.Struct("<B").unpack_from
_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_I32 = struct.Struct("<i").unpack_from
_U64 = struct.Struct("<Q").unpack_from

# A path is built as nested tuples (parent, field name, index or None) and written out only for a message.
Path = tuple[Any, str, int | None] | None


def path_text(path: Path) -> str:
    """`subgraphs[0].operators[12]` for the nested path tuples."""
    parts: list[str] = []
    while path is not None:
        path, name, index = path
        parts.append(name if index is None else f"{name}[{index}]")
    return ".".join(reversed(parts)) or "the model"


class _Compiled:
    """The schema as tuples per table, for a fast walk: (slot index, field) with the vtable index of the
    field's slot (its offset / 2), and for each union the type field's slot index."""

    def __init__(self) -> None:
        tables, self.unions = schema()
        self.tables: dict[str, tuple[tuple[int, Field, int], ...]] = {}
        for name, fields in tables.items():
            compiled = []
            for position, field in enumerate(fields):
                type_slot = 0
                if field.kind == "union":
                    type_field = fields[position - 1]
                    type_slot = type_field.slot // 2
                compiled.append((field.slot // 2, field, type_slot))
            self.tables[name] = tuple(compiled)
        # The tables that point at data stored after the FlatBuffer: the vtable indices of the offset and size.
        slots = {name: {field.name: field.slot // 2 for field in fields} for name, fields in tables.items()}
        self.outside_data = {
            "Buffer": ("offset", slots["Buffer"]["offset"], slots["Buffer"]["size"]),
            "Operator": (
                "large_custom_options_offset",
                slots["Operator"]["large_custom_options_offset"],
                slots["Operator"]["large_custom_options_size"],
            ),
        }


_COMPILED: _Compiled | None = None


def _compiled() -> _Compiled:
    global _COMPILED
    if _COMPILED is None:
        _COMPILED = _Compiled()
    return _COMPILED


class _Verifier:
    def __init__(self, data: bytes, source: str, max_depth: int, max_tables: int) -> None:
        self.data = data
        self.size = len(data)
        self.source = source
        self.schema = _compiled()
        self.max_depth = max_depth
        self.max_tables = max_tables
        self.table_count = 0
        # Tables already verified (position, table, depth): a file may point at one table many times (a
        # vector of a million offsets to one tensor); each reference counts against max_tables, as in
        # FlatBuffers, but the table is walked once.
        self.verified: set[tuple[int, str, int]] = set()

    def fail(self, path: Path, what: str, offset: int) -> ModelFormatError:
        return ModelFormatError(
            f"{self.source}: not a valid LiteRT FlatBuffer: {path_text(path)}: {what} (offset 0x{offset:x})",
            hint=HINT,
        )

    def past_end(self, path: Path, what: str, offset: int) -> ModelFormatError:
        return self.fail(path, f"{what} runs past the end of the {self.size:,}-byte file", offset)

    def verify(self) -> None:
        if self.size < 8:
            raise self.fail(None, f"{self.size} bytes cannot hold a FlatBuffer's root offset and identifier", 0)
        root = _U32(self.data, 0)[0]
        self.check_target(None, "the root offset", 0, root, 4)
        self.verify_table(root, ROOT_TABLE, None, 1)

    def check_target(self, path: Path, what: str, position: int, offset: int, alignment: int) -> int:
        """The position an offset at `position` leads to: non-zero, not negative, aligned and in the file."""
        if offset == 0 or offset > MAX_OFFSET:
            raise self.fail(path, f"{what} is {offset:#x}, not a valid offset", position)
        target = position + offset
        if target >= self.size:
            raise self.fail(
                path, f"{what} leads to byte {target:,}, past the end of the {self.size:,}-byte file", position
            )
        if target % alignment:
            raise self.fail(path, f"{what} leads to byte {target:,}, not aligned to {alignment} bytes", position)
        return target

    def vector_length(self, path: Path, start: int, element_size: int, element_name: str) -> int:
        """The length of the vector (or string) at `start`, checked to fit in the file."""
        if start + 4 > self.size:
            raise self.past_end(path, "the vector's length", start)
        length = _U32(self.data, start)[0]
        if start + 4 + length * element_size > self.size:
            raise self.past_end(path, f"vector of {length:,} {element_name}", start)
        return length

    def verify_string(self, path: Path, start: int) -> None:
        length = self.vector_length(path, start, 1, "characters")
        end = start + 4 + length
        if end >= self.size:
            raise self.past_end(path, f"string of {length:,} characters and its terminating NUL", start)
        if self.data[end] != 0:
            raise self.fail(path, f"string of {length:,} characters has no terminating NUL", start)

    def verify_table(self, position: int, table: str, path: Path, depth: int) -> None:
        data = self.data
        self.table_count += 1
        if depth > self.max_depth:
            raise self.fail(path, f"tables nested more than {self.max_depth} deep", position)
        if self.table_count > self.max_tables:
            raise self.fail(path, f"more than {self.max_tables:,} tables", position)
        key = (position, table, depth)
        if key in self.verified:
            return
        self.verified.add(key)
        if position % 4 or position + 4 > self.size:
            raise self.fail(path, f"a {table} table at byte {position:,} is not aligned or not in the file", position)
        vtable = position - _I32(data, position)[0]
        if vtable < 0 or vtable + 4 > self.size or vtable % 2:
            raise self.fail(path, f"the {table} table's vtable at byte {vtable:,} is not in the file", position)
        vtable_size, object_size = _U16(data, vtable)[0], _U16(data, vtable + 2)[0]
        if vtable_size < 4 or vtable_size % 2 or vtable + vtable_size > self.size:
            raise self.fail(path, f"the {table} table's vtable has an invalid size of {vtable_size} bytes", vtable)
        if object_size < 4 or position + object_size > self.size:
            raise self.fail(path, f"the {table} table's size of {object_size} bytes is invalid or past the end", vtable)
        entries = struct.unpack_from(f"<{vtable_size // 2}H", data, vtable)
        entry_count = len(entries)
        for slot, field, type_slot in self.schema.tables[table]:
            if slot >= entry_count:
                break  # the fields are in slot order: none after this one is present
            field_offset = entries[slot]
            if field_offset == 0:
                continue
            field_position = position + field_offset
            if field_offset + field.size > object_size:
                raise self.fail(
                    (path, field.name, None),
                    f"field at {field_offset} bytes into a {object_size}-byte {table} table",
                    field_position,
                )
            if field_position % field.size:
                raise self.fail((path, field.name, None), f"field not aligned to {field.size} bytes", field_position)
            if field.kind != "scalar":
                self.verify_reference(position, field, field_position, entries, type_slot, path, depth)
        outside = self.schema.outside_data.get(table)
        if outside is not None:
            self.check_outside_data(position, entries, path, *outside)

    def verify_reference(
        self,
        table_position: int,
        field: Field,
        position: int,
        entries: tuple[int, ...],
        type_slot: int,
        path: Path,
        depth: int,
    ) -> None:
        """A field holding an offset: the string, table, vector or union value it leads to."""
        data = self.data
        kind = field.kind
        field_path = (path, field.name, None)
        if kind == "union":
            type_code = (
                _U8(data, table_position + entries[type_slot])[0]
                if type_slot < len(entries) and entries[type_slot]
                else 0
            )
            if type_code == 0:
                # NONE with no value, as writers leave it. FlatBuffers would skip a value here unverified,
                # but the generated accessors (BuiltinOptions()) return it whatever the type says: refused.
                if _U32(data, position)[0] != 0:
                    raise self.fail(field_path, f"a value is present but {field.name}_type is NONE", position)
                return
            table = self.schema.unions[field.element].get(type_code)
            if table is None:
                raise self.fail(
                    (path, f"{field.name}_type", None),
                    f"type {type_code} names no {field.element} table",
                    table_position + entries[type_slot],
                )
            target = self.check_target(field_path, "offset", position, _U32(data, position)[0], 4)
            self.verify_table(target, table, field_path, depth + 1)
            return
        target = self.check_target(field_path, "offset", position, _U32(data, position)[0], 4)
        if kind == "table":
            self.verify_table(target, field.element, field_path, depth + 1)
        elif kind == "string":
            self.verify_string(field_path, target)
        elif kind == "vector":
            self.vector_length(field_path, target, field.element_size, SCALAR_NAMES[field.element])
        else:  # a vector of tables or strings
            what = "strings" if kind == "strings" else f"{field.element} offsets"
            length = self.vector_length(field_path, target, 4, what)
            for index in range(length):
                element = target + 4 + 4 * index
                element_path = (path, field.name, index)
                element_target = self.check_target(element_path, "offset", element, _U32(data, element)[0], 4)
                if kind == "tables":
                    self.verify_table(element_target, field.element, element_path, depth + 1)
                else:
                    self.verify_string(element_path, element_target)

    def check_outside_data(
        self, position: int, entries: tuple[int, ...], path: Path, offset_name: str, offset_slot: int, size_slot: int
    ) -> None:
        """Data stored after the FlatBuffer (offset > 1; LiteRT writes 1 for none) lies inside the file."""
        offset = self.u64_field(position, entries, offset_slot)
        if offset <= 1:
            return
        size = self.u64_field(position, entries, size_slot)
        if offset + size > self.size:
            raise self.past_end(
                (path, offset_name, None),
                f"data stored outside the FlatBuffer ({size:,} bytes at byte {offset:,})",
                position,
            )

    def u64_field(self, position: int, entries: tuple[int, ...], slot: int) -> int:
        """A uint64 field's value (0 when absent); verify_table checked where it lies."""
        if slot >= len(entries) or not entries[slot]:
            return 0
        return _U64(self.data, position + entries[slot])[0]


def verify_litert_flatbuffer(
    data: bytes, source: str, *, max_depth: int = MAX_DEPTH, max_tables: int = MAX_TABLES
) -> None:
    """Raises a ModelFormatError naming the first field of `data` that breaks the LiteRT schema's structure."""
    _Verifier(bytes(data), source, max_depth, max_tables).verify()


def _indices(vector: Any) -> list[int]:
    """A tflite accessor's int32 vector (0 when absent) as a list."""
    return [] if isinstance(vector, int) else [int(v) for v in vector]


def check_model_contents(data: bytes, source: str) -> None:
    """The model, already verified, has something to convert: a subgraph whose outputs are computed.

    TFLite Micro runs a subgraph without operators (its NumSubgraphOperators counts a missing list as
    none), so an identity model, whose outputs are all among its inputs, is accepted; so is a subgraph
    without inputs whose operators read only constants and each other's outputs. Anything else
    without operators, inputs or outputs is a damaged or truncated export, named here.
    """
    model = tflite.Model.GetRootAs(data, 0)
    if model.SubgraphsLength() == 0:
        raise ModelFormatError(f"{source}: the model has no subgraphs", hint=HINT)
    subgraph = model.Subgraphs(0)
    inputs, outputs = _indices(subgraph.InputsAsNumpy()), _indices(subgraph.OutputsAsNumpy())
    if not outputs:
        raise ModelFormatError(f"{source}: subgraph 0 has no outputs: it computes nothing", hint=HINT)
    if subgraph.OperatorsLength() == 0:
        not_inputs = [index for index in outputs if index not in inputs]
        if not_inputs:
            raise ModelFormatError(
                f"{source}: subgraph 0 has no operators, but its output tensor {not_inputs[0]} is not one of its "
                f"inputs {inputs}: nothing computes it (only an identity model, whose outputs are inputs, has none)",
                hint=HINT,
            )
        return
    if not inputs:
        unfed = _tensors_without_a_source(model, subgraph)
        if unfed:
            raise ModelFormatError(
                f"{source}: subgraph 0 has no inputs, but operator {unfed[0]} reads tensor {unfed[1]}, which is "
                "neither a constant, a variable nor any operator's output",
                hint=HINT,
            )


def _tensors_without_a_source(model: Any, subgraph: Any) -> tuple[int, int] | None:
    """The first (operator, tensor) where an operator reads a tensor that no input, constant, variable or
    operator provides; None when there is none."""
    tensor_count = subgraph.TensorsLength()
    produced: set[int] = set()
    for index in range(subgraph.OperatorsLength()):
        produced.update(_indices(subgraph.Operators(index).OutputsAsNumpy()))
    for index in range(subgraph.OperatorsLength()):
        for tensor_index in _indices(subgraph.Operators(index).InputsAsNumpy()):
            if tensor_index == -1 or tensor_index in produced or not 0 <= tensor_index < tensor_count:
                continue  # an omitted input; a tensor out of range is the reader's to name
            tensor = subgraph.Tensors(tensor_index)
            if tensor.IsVariable() or _has_data(model, tensor.Buffer()):
                continue
            return index, tensor_index
    return None


def _has_data(model: Any, buffer_index: int) -> bool:
    if not 0 < buffer_index < model.BuffersLength():
        return False
    buffer = model.Buffers(buffer_index)
    return buffer.DataLength() > 0 or buffer.Offset() > 1


def verify_litert_model(data: bytes, source: str) -> None:
    """verify_litert_flatbuffer, then check_model_contents."""
    verify_litert_flatbuffer(data, source)
    check_model_contents(data, source)
