# SPDX-License-Identifier: Apache-2.0
"""The LiteRT FlatBuffer verifier: every real model verifies, and each kind of damage is refused naming the
field where it is, as a ModelFormatError and nothing else.

Damage is made in two ways: bytes changed where the `tflite` accessors say a field lies, and models
rewritten through LiteRT's own object API (`ai_edge_litert.schema_py_generated`) for the model-level
cases (no operators, no inputs). TFLite Micro's interpreter is asked about the latter, so that what is
refused here and accepted there is known.
"""

import contextlib
import copy
import pathlib
import re
import struct
import time

import flatbuffers
import pytest
import tflite
from ai_edge_litert import schema_py_generated as litert_schema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tflite_micro.python.tflite_micro import runtime

from opbridge.aot.definition_registration import as_registry_context
from opbridge.errors import ModelFormatError, OpbridgeError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.litert.schema_tables import SCALAR_BYTES, Field, parse_tables, schema
from opbridge.frontends.litert.verifier import verify_litert_flatbuffer, verify_litert_model
from opbridge.ops.builtin import build_builtin_registry

MODELS = pathlib.Path("../shared_models/models")
SHARED_MODELS = sorted(MODELS.rglob("*.tflite"))
COMMITTED_MODELS = sorted(pathlib.Path("tests").rglob("*.tflite"))
HELLO_WORLD = (MODELS / "tflm/hello_world_int8.tflite").read_bytes()
KWS = (MODELS / "mlperf_tiny/kws_ref_model.tflite").read_bytes()
CONTEXT = as_registry_context(build_builtin_registry())
TFLITE_PACKAGE = pathlib.Path(tflite.__file__).parent
SHARED_MODEL_MILLISECONDS = 100


def test_the_models_are_there() -> None:
    assert len(SHARED_MODELS) == 6 and len(COMMITTED_MODELS) >= 10


@pytest.mark.parametrize("path", SHARED_MODELS + COMMITTED_MODELS, ids=lambda path: path.name)
def test_every_real_model_verifies_well_within_time(path: pathlib.Path) -> None:
    data = path.read_bytes()
    verify_litert_model(data, path.name)  # once for the schema's first use
    start = time.perf_counter()
    verify_litert_model(data, path.name)
    assert (time.perf_counter() - start) * 1000 < SHARED_MODEL_MILLISECONDS


# The description of the tables, as derived from the `tflite` package's generated classes: one module per
# table; each field's accessor reads it at `self._tab.Offset(N)`, and its body says what it holds.
_SCALAR_FLAGS = {
    "Bool": "bool",
    "Int8": "i8",
    "Uint8": "u8",
    "Int16": "i16",
    "Uint16": "u16",
    "Int32": "i32",
    "Uint32": "u32",
    "Int64": "i64",
    "Uint64": "u64",
    "Float32": "f32",
    "Float64": "f64",
}
_ACCESSOR = re.compile(r"    # \w+\n    def (\w+)\(self(?:, j)?\):\n(.*?)(?=\n    # |\ndef |\Z)", re.S)


def _field_name(accessor: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", accessor).lower()


def _accessor_type(body: str) -> str:
    """What an accessor reads: a scalar, "string", a table, "[element]", or "union"."""
    table = re.search(r"from tflite\.(\w+) import", body)
    if "self._tab.Union" in body:
        return "union"
    if "self._tab.Vector" in body:
        if table:
            return f"[{table.group(1)}]"
        if "self._tab.String" in body:
            return "[string]"
        element = re.search(r"number_types\.(\w+)Flags, a \+", body)
        return f"[{_SCALAR_FLAGS[element.group(1)]}]"
    if table and "self._tab.Indirect" in body:
        return table.group(1)
    if "self._tab.String" in body:
        return "string"
    return _SCALAR_FLAGS[re.search(r"number_types\.(\w+)Flags, o \+", body).group(1)]


def tables_of_the_tflite_package() -> dict[str, dict[int, tuple[str, str]]]:
    """Each table of the package: vtable offset -> (field name, type)."""
    tables = {}
    for path in sorted(TFLITE_PACKAGE.glob("*.py")):
        text = path.read_text()
        if "def Init(self, buf, pos)" not in text:
            continue  # an enum
        fields = {}
        for accessor, body in _ACCESSOR.findall(text):
            slot = re.search(r"self\._tab\.Offset\((\d+)\)", body)
            if slot and not accessor.endswith(("AsNumpy", "Length", "IsNone")):
                fields[int(slot.group(1))] = (_field_name(accessor), _accessor_type(body))
        tables[path.stem] = fields
    return tables


def test_the_description_matches_the_tflite_package_table_by_table() -> None:
    package = tables_of_the_tflite_package()
    tables, unions = schema()
    assert sorted(tables) == sorted(package)
    for name, fields in tables.items():
        described = {field.slot: (field.name, field_type(field)) for field in fields}
        assert described == package[name], name
    # Every union's tables are described, and each union field follows its type field.
    for union in unions.values():
        assert set(union.values()) <= set(tables)
    for fields in tables.values():
        for position, field in enumerate(fields):
            if field.kind == "union":
                type_field = fields[position - 1]
                assert (type_field.name, type_field.element, type_field.slot) == (
                    f"{field.name}_type",
                    "u8",
                    field.slot - 2,
                )


def field_type(field: Field) -> str:
    """A field's type as the package derivation writes it (unions without their name)."""
    element = {"scalar": field.element, "table": field.element, "string": "string", "union": "union"}.get(field.kind)
    if element is not None:
        return element
    return "[string]" if field.kind == "strings" else f"[{field.element}]"


def test_the_description_covers_every_table_the_reader_reads() -> None:
    tables, unions = schema()
    read = {
        "Model",
        "SubGraph",
        "Tensor",
        "Buffer",
        "OperatorCode",
        "Operator",
        "QuantizationParameters",
        "SparsityParameters",
        "DimensionMetadata",
        "Metadata",
        "SignatureDef",
        "TensorMap",
        "VariantSubType",
        "CustomQuantization",
    }
    options = {name for name in dir(tflite) if name.endswith("Options") and isinstance(getattr(tflite, name), type)}
    options -= {"BuiltinOptions", "BuiltinOptions2", "CustomOptionsFormat"}
    assert read | options <= set(tables)
    assert set(unions["BuiltinOptions"].values()) | set(unions["BuiltinOptions2"].values()) <= options


def test_deprecated_fields_keep_their_slots() -> None:
    tables = parse_tables("SignatureDef: inputs [TensorMap], outputs [TensorMap], signature_key string, -, index u32")
    assert [(field.name, field.slot) for field in tables["SignatureDef"]][-1] == ("index", 12)
    assert set(SCALAR_BYTES.values()) == {1, 2, 4, 8}


# Damage made at the bytes the accessors point at.
def u32(data: bytes | bytearray, position: int) -> int:
    return struct.unpack_from("<I", data, position)[0]


def field_position(table: object, slot: int) -> int:
    """Where a present field of a tflite accessor object lies in the file."""
    offset = table._tab.Offset(slot)  # type: ignore[attr-defined]
    assert offset, f"field {slot} is absent"
    return table._tab.Pos + offset  # type: ignore[attr-defined]


def refused(data: bytes | bytearray, source: str = "bad.tflite") -> str:
    with pytest.raises(ModelFormatError) as error:
        verify_litert_model(bytes(data), source)
    assert error.value.hint and source in error.value.message
    return error.value.message


def test_a_root_offset_past_the_end_is_refused() -> None:
    data = bytearray(HELLO_WORLD)
    struct.pack_into("<I", data, 0, len(data) + 64)
    assert "the model: the root offset leads to byte 2,768, past the end of the 2,704-byte file" in refused(data)


def test_a_vtable_offset_out_of_range_is_refused() -> None:
    data = bytearray(KWS)
    model = tflite.Model.GetRootAs(KWS, 0)
    operator = model.Subgraphs(0).Operators(3)
    struct.pack_into("<i", data, operator._tab.Pos, -0x10000000)
    message = refused(data, "kws.tflite")
    assert re.search(
        r"subgraphs\[0\]\.operators\[3\]: the Operator table's vtable at byte [\d,]+ is not in the file", message
    )


def test_a_vector_length_past_the_end_is_refused() -> None:
    data = bytearray(KWS)
    operator = tflite.Model.GetRootAs(KWS, 0).Subgraphs(0).Operators(12)
    inputs = field_position(operator, 6)
    vector = inputs + u32(KWS, inputs)
    struct.pack_into("<I", data, vector, 4_000_000)
    message = refused(data, "kws.tflite")
    assert (
        "kws.tflite: not a valid LiteRT FlatBuffer: subgraphs[0].operators[12].inputs: vector of 4,000,000 int32 "
        f"runs past the end of the 53,936-byte file (offset {vector:#x})"
    ) in message


def test_a_string_without_its_terminator_is_refused() -> None:
    data = bytearray(KWS)
    tensor = tflite.Model.GetRootAs(KWS, 0).Subgraphs(0).Tensors(2)
    name = field_position(tensor, 10)
    string = name + u32(KWS, name)
    length = u32(KWS, string)
    assert data[string + 4 + length] == 0
    data[string + 4 + length] = ord("x")
    assert f"subgraphs[0].tensors[2].name: string of {length} characters has no terminating NUL" in refused(data)


def test_a_union_type_without_a_table_is_refused() -> None:
    data = bytearray(KWS)
    operator = tflite.Model.GetRootAs(KWS, 0).Subgraphs(0).Operators(0)
    assert operator.BuiltinOptionsType() != 0
    data[field_position(operator, 10)] = 250
    assert "subgraphs[0].operators[0].builtin_options_type: type 250 names no BuiltinOptions table" in refused(data)


def test_a_union_value_is_verified_as_its_table() -> None:
    data = bytearray(KWS)
    operator = tflite.Model.GetRootAs(KWS, 0).Subgraphs(0).Operators(0)
    options = field_position(operator, 12)
    struct.pack_into("<I", data, options, 2)  # the offset now leads into the middle of a table
    assert "subgraphs[0].operators[0].builtin_options: offset leads to byte" in refused(data)


def test_a_field_outside_its_table_is_refused() -> None:
    data = bytearray(KWS)
    tensor = tflite.Model.GetRootAs(KWS, 0).Subgraphs(0).Tensors(1)
    vtable = tensor._tab.Pos - struct.unpack_from("<i", KWS, tensor._tab.Pos)[0]
    struct.pack_into("<H", data, vtable + 4, 0x7FF0)  # the shape field, far beyond the table's object
    assert "subgraphs[0].tensors[1].shape: field at 32752 bytes into a" in refused(data)


def test_nesting_deeper_than_the_limit_is_refused() -> None:
    """The schema has no recursive table, so real depth stays below 8 (quantization details are the deepest);
    the limit, 64 as in FlatBuffers, still guards the walk: a lower one shows it names the path."""
    with pytest.raises(
        ModelFormatError, match=r"subgraphs\[0\]\.tensors\[0\]\.quantization: tables nested more than 3"
    ):
        verify_litert_flatbuffer(KWS, "kws.tflite", max_depth=3)


def test_a_table_bomb_is_refused_and_stays_fast() -> None:
    """A vector of many offsets to one table counts each reference, as FlatBuffers does."""
    model = model_object(HELLO_WORLD)
    model.subgraphs[0].tensors = model.subgraphs[0].tensors * 3000
    data = pack(model)
    start = time.perf_counter()
    with pytest.raises(ModelFormatError, match="more than 5,000 tables"):
        verify_litert_flatbuffer(data, "bomb.tflite", max_tables=5000)
    assert time.perf_counter() - start < 1.0


def test_truncated_models_name_the_first_field_past_the_end() -> None:
    for length in range(8, len(HELLO_WORLD), 97):
        message = refused(HELLO_WORLD[:length])
        assert "not a valid LiteRT FlatBuffer" in message


# Model-level damage through LiteRT's object API.
def model_object(data: bytes) -> litert_schema.ModelT:
    return litert_schema.ModelT.InitFromPackedBuf(data, 0)


def pack(model: litert_schema.ModelT) -> bytes:
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def tflite_micro_accepts(data: bytes) -> bool:
    try:
        runtime.Interpreter.from_bytes(data, arena_size=64 * 1024)
    except Exception:  # the runtime raises RuntimeError, ValueError, ...
        return False
    return True


def test_six_hundred_operators_verify_well_within_time() -> None:
    """Verification is a small part of reading a large model (14 ms for 600 operators on the development
    machine, where the reader takes 200 ms)."""
    model = model_object(HELLO_WORLD)
    first, middle, last = model.subgraphs[0].operators
    model.subgraphs[0].operators = [first, *(copy.deepcopy(middle) for _ in range(600)), last]
    data = pack(model)
    verify_litert_model(data, "chain.tflite")
    start = time.perf_counter()
    verify_litert_model(data, "chain.tflite")
    assert (time.perf_counter() - start) * 1000 < SHARED_MODEL_MILLISECONDS


def test_a_model_without_operators_is_refused_though_tflite_micro_runs_it() -> None:
    model = model_object(HELLO_WORLD)
    model.subgraphs[0].operators = []
    data = pack(model)
    assert tflite_micro_accepts(data)
    message = refused(data)
    assert "subgraph 0 has no operators, but its output tensor 9 is not one of its inputs [0]" in message


def test_an_identity_model_is_valid() -> None:
    """TFLite Micro runs a subgraph without operators whose outputs are its inputs; so does opbridge read it."""
    model = model_object(HELLO_WORLD)
    model.subgraphs[0].operators = []
    model.subgraphs[0].outputs = list(model.subgraphs[0].inputs)
    data = pack(model)
    assert tflite_micro_accepts(data)
    verify_litert_model(data, "identity.tflite")
    graph = read_litert_model(data, CONTEXT, "identity.tflite")
    assert graph.nodes == [] and graph.inputs == graph.outputs


def test_a_model_without_inputs_is_refused_when_an_operator_reads_nothing() -> None:
    model = model_object(HELLO_WORLD)
    model.subgraphs[0].inputs = []
    message = refused(pack(model))
    assert "subgraph 0 has no inputs, but operator 0 reads tensor 0" in message


def test_a_model_without_outputs_or_subgraphs_is_refused() -> None:
    model = model_object(HELLO_WORLD)
    model.subgraphs[0].outputs = []
    assert "subgraph 0 has no outputs" in refused(pack(model))
    model.subgraphs = []
    assert "the model has no subgraphs" in refused(pack(model))


def test_buffers_stored_after_the_flatbuffer_must_lie_in_the_file() -> None:
    """Models over 2 GiB keep their buffers after the FlatBuffer (Buffer.offset and size, from the file's
    start): such a buffer verifies when its bytes are in the file, and is named when they are not."""
    model = model_object(HELLO_WORLD)
    index = next(index for index, buffer in enumerate(model.buffers) if buffer.data is not None)
    buffer = model.buffers[index]
    size = len(buffer.data)
    buffer.data, buffer.offset, buffer.size = None, 1 << 20, size  # the table's size does not depend on them
    buffer.offset = len(pack(model))
    flatbuffer = pack(model)
    assert len(flatbuffer) == buffer.offset
    verify_litert_flatbuffer(flatbuffer + bytes(size), "external.tflite")
    with pytest.raises(ModelFormatError, match=rf"buffers\[{index}\]\.offset: data stored outside the FlatBuffer"):
        verify_litert_flatbuffer(flatbuffer + bytes(size - 1), "external.tflite")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([HELLO_WORLD, KWS]), st.data())
def test_mutations_raise_only_typed_errors(model: bytes, data: st.DataObject) -> None:
    mutated = bytearray(model)
    for _ in range(data.draw(st.integers(1, 6), label="edits")):
        kind = data.draw(st.sampled_from(["flip", "splice", "truncate"]), label="kind")
        position = data.draw(st.integers(0, len(mutated) - 1), label="position")
        if kind == "flip":
            mutated[position] ^= 1 << data.draw(st.integers(0, 7), label="bit")
        elif kind == "splice":
            start = data.draw(st.integers(0, len(model) - 1), label="from")
            chunk = model[start : start + data.draw(st.integers(1, 64), label="length")]
            mutated[position : position + len(chunk)] = chunk
        else:
            del mutated[max(position, 1) :]
    try:
        verify_litert_model(bytes(mutated), "mutated.tflite")
    except ModelFormatError:
        return
    with contextlib.suppress(OpbridgeError):
        read_litert_model(bytes(mutated), CONTEXT, "mutated.tflite")
