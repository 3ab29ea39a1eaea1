"""A small reader of ONNX ModelProto files that needs neither onnx nor protobuf.

It decodes the protobuf wire format for the fields a custom-op graph uses
(opset imports; graph nodes, inputs, outputs, value infos, initializers;
node attributes of scalar, string and list types) and reports anything else
it meets in a graph as unsupported. Damaged bytes raise ModelFormatError
naming the message and the byte offset; nothing else escapes (fuzz-tested).

Field numbers are those of onnx.proto (onnx/onnx.proto in the ONNX repo).
"""

import dataclasses
import struct
from collections.abc import Iterator

from opbridge.errors import ModelFormatError, UnsupportedTensorError

_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5
# Nesting a real model needs is shallow; a cap keeps damaged input from recursing deeply.
_MAX_DEPTH = 16

# AttributeProto.AttributeType values this reader decodes.
_ATTRIBUTE_TYPES = {1: "FLOAT", 2: "INT", 3: "STRING", 6: "FLOATS", 7: "INTS", 8: "STRINGS"}
_UNSUPPORTED_ATTRIBUTES = {
    4: "TENSOR",
    5: "GRAPH",
    9: "TENSORS",
    10: "GRAPHS",
    11: "SPARSE_TENSOR",
    12: "SPARSE_TENSORS",
    13: "TYPE_PROTO",
    14: "TYPE_PROTOS",
}


class Ints(list[int]):
    """An INTS attribute: a list that keeps its type when empty."""


class Floats(list[float]):
    """A FLOATS attribute."""


class Strings(list[str]):
    """A STRINGS attribute."""


AttributeValue = int | float | str | Ints | Floats | Strings


@dataclasses.dataclass
class ValueInfo:
    """A graph input or output: its element type (ONNX number) and shape (None: unknown)."""

    name: str
    elem_type: int = 0  # 0: not given
    shape: list[int | str] | None = None  # int: fixed, str: symbolic (dim_param or "")


@dataclasses.dataclass
class NodeProto:
    name: str = ""
    op_type: str = ""
    domain: str = ""
    inputs: list[str] = dataclasses.field(default_factory=list)
    outputs: list[str] = dataclasses.field(default_factory=list)
    attributes: dict[str, AttributeValue] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class GraphProto:
    name: str = ""
    nodes: list[NodeProto] = dataclasses.field(default_factory=list)
    inputs: list[ValueInfo] = dataclasses.field(default_factory=list)
    outputs: list[ValueInfo] = dataclasses.field(default_factory=list)
    value_infos: list[ValueInfo] = dataclasses.field(default_factory=list)
    initializer_names: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class ModelProto:
    ir_version: int = 0
    opset_imports: dict[str, int] = dataclasses.field(default_factory=dict)  # "" = the default domain
    graph: GraphProto | None = None
    function_names: list[str] = dataclasses.field(default_factory=list)


class _Reader:
    """Fields of one message: (field number, wire type, value) in file order."""

    def __init__(self, data: bytes | memoryview, what: str, base: int = 0, depth: int = 0) -> None:
        if depth > _MAX_DEPTH:
            raise ModelFormatError(f"{what} at byte {base}: messages nested more than {_MAX_DEPTH} deep")
        self.data = memoryview(data)
        self.what = what
        self.base = base
        self.depth = depth

    def error(self, offset: int, problem: str) -> ModelFormatError:
        return ModelFormatError(
            f"{self.what} at byte {self.base + offset}: {problem}",
            hint="the file is truncated or is not an ONNX model; re-export it",
        )

    def _varint(self, offset: int) -> tuple[int, int]:
        value = 0
        for shift in range(0, 70, 7):
            if offset >= len(self.data):
                raise self.error(offset, "truncated varint")
            byte = self.data[offset]
            offset += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                if value >= 1 << 64:
                    raise self.error(offset, "varint longer than 64 bits")
                return value, offset
        raise self.error(offset, "varint longer than 10 bytes")

    def fields(self) -> Iterator[tuple[int, int, int | bytes | memoryview, int]]:
        """Yields (field, wire type, value, offset of the value)."""
        offset = 0
        while offset < len(self.data):
            key, offset = self._varint(offset)
            field, wire = key >> 3, key & 7
            if field == 0:
                raise self.error(offset, "field number 0")
            start = offset
            if wire == _VARINT:
                value, offset = self._varint(offset)
                yield field, wire, value, start
            elif wire in (_FIXED64, _FIXED32):
                size = 8 if wire == _FIXED64 else 4
                if offset + size > len(self.data):
                    raise self.error(offset, f"truncated {size * 8}-bit field {field}")
                yield field, wire, self.data[offset : offset + size], start
                offset += size
            elif wire == _BYTES:
                length, offset = self._varint(offset)
                if length > len(self.data) - offset:
                    raise self.error(offset, f"field {field} claims {length} bytes, {len(self.data) - offset} remain")
                yield field, wire, self.data[offset : offset + length], offset
                offset += length
            else:
                raise self.error(offset, f"field {field} has wire type {wire} (groups are not used by ONNX)")

    def message(self, value: int | bytes | memoryview, offset: int, what: str) -> "_Reader":
        if not isinstance(value, memoryview):
            raise self.error(offset, f"{what} is not a length-delimited message")
        return _Reader(value, f"{self.what}.{what}", self.base + offset, self.depth + 1)

    def string(self, value: int | bytes | memoryview, offset: int, what: str) -> str:
        if not isinstance(value, memoryview):
            raise self.error(offset, f"{what} is not a string")
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise self.error(offset, f"{what} is not valid UTF-8") from None

    def integer(self, value: int | bytes | memoryview, offset: int, what: str) -> int:
        if not isinstance(value, int):
            raise self.error(offset, f"{what} is not a varint")
        return value - (1 << 64) if value >= 1 << 63 else value  # int64, two's complement


def read_model(data: bytes) -> ModelProto:
    """Parses a serialized ONNX ModelProto (raises ModelFormatError)."""
    if not data:
        raise ModelFormatError("the model is empty", hint="pass the bytes of an .onnx file")
    reader = _Reader(data, "ModelProto")
    model = ModelProto()
    for field, _wire, value, offset in reader.fields():
        if field == 1:
            model.ir_version = reader.integer(value, offset, "ir_version")
        elif field == 8:
            opset = reader.message(value, offset, "opset_import")
            domain, version = "", 0
            for f, _w, v, o in opset.fields():
                if f == 1:
                    domain = opset.string(v, o, "domain")
                elif f == 2:
                    version = opset.integer(v, o, "version")
            domain = "" if domain == "ai.onnx" else domain
            if domain in model.opset_imports:
                raise reader.error(offset, f'opset_import lists domain "{domain}" twice')
            model.opset_imports[domain] = version
        elif field == 7:
            model.graph = _read_graph(reader.message(value, offset, "graph"))
        elif field == 25:
            function = reader.message(value, offset, "functions")
            for f, _w, v, o in function.fields():
                if f == 1:
                    model.function_names.append(function.string(v, o, "name"))
    if model.graph is None:
        raise ModelFormatError("the model has no graph", hint="the file is truncated or is not an ONNX model")
    return model


def _read_graph(reader: _Reader) -> GraphProto:
    graph = GraphProto()
    for field, _wire, value, offset in reader.fields():
        if field == 1:
            graph.nodes.append(_read_node(reader.message(value, offset, f"node[{len(graph.nodes)}]")))
        elif field == 2:
            graph.name = reader.string(value, offset, "name")
        elif field == 5:  # initializer: only its name (TensorProto.name is field 8)
            tensor = reader.message(value, offset, "initializer")
            names = [tensor.string(v, o, "name") for f, _w, v, o in tensor.fields() if f == 8]
            graph.initializer_names.append(names[-1] if names else "")
        elif field == 15:
            graph.initializer_names.append("<sparse initializer>")
        elif field in (11, 12, 13):
            info = _read_value_info(reader.message(value, offset, {11: "input", 12: "output", 13: "value_info"}[field]))
            {11: graph.inputs, 12: graph.outputs, 13: graph.value_infos}[field].append(info)
    return graph


def _read_node(reader: _Reader) -> NodeProto:
    node = NodeProto()
    for field, _wire, value, offset in reader.fields():
        if field == 1:
            node.inputs.append(reader.string(value, offset, "input"))
        elif field == 2:
            node.outputs.append(reader.string(value, offset, "output"))
        elif field == 3:
            node.name = reader.string(value, offset, "name")
        elif field == 4:
            node.op_type = reader.string(value, offset, "op_type")
        elif field == 7:
            node.domain = reader.string(value, offset, "domain")
        elif field == 5:
            name, attribute = _read_attribute(reader.message(value, offset, "attribute"), node)
            node.attributes[name] = attribute
    node.domain = "" if node.domain == "ai.onnx" else node.domain
    return node


def _read_attribute(reader: _Reader, node: NodeProto) -> tuple[str, AttributeValue]:
    name = ""
    kind = 0
    scalars: dict[int, AttributeValue] = {}
    floats: list[float] = []
    ints: list[int] = []
    strings: list[str] = []
    for field, wire, value, offset in reader.fields():
        if field == 1:
            name = reader.string(value, offset, "name")
        elif field == 20:
            kind = reader.integer(value, offset, "type")
        elif field == 2:
            if not isinstance(value, memoryview) or len(value) != 4:
                raise reader.error(offset, "attribute f is not a 32-bit float")
            scalars[1] = struct.unpack("<f", value)[0]
        elif field == 3:
            scalars[2] = reader.integer(value, offset, "i")
        elif field == 4:
            scalars[3] = reader.string(value, offset, "s")
        elif field == 7:  # floats: packed (bytes) or one fixed32 per field
            if not isinstance(value, memoryview) or (wire == _BYTES and len(value) % 4):
                raise reader.error(offset, "attribute floats are not 32-bit floats")
            floats.extend(struct.unpack(f"<{len(value) // 4}f", value))
        elif field == 8:  # ints: packed varints or one varint per field
            if isinstance(value, int):
                ints.append(reader.integer(value, offset, "ints"))
            else:
                packed = _Reader(value, f"{reader.what}.ints", reader.base + offset, reader.depth + 1)
                position = 0
                while position < len(packed.data):
                    number, position = packed._varint(position)
                    ints.append(number - (1 << 64) if number >= 1 << 63 else number)
        elif field == 9:
            strings.append(reader.string(value, offset, "strings"))
        elif field == 21:
            raise UnsupportedTensorError(
                f'node "{node.name}" ({node.op_type}): attribute "{name}" refers to a function attribute',
                hint="only nodes of the main graph with literal attributes are supported",
            )
    where = f'node "{node.name}" ({node.domain}::{node.op_type}) attribute "{name}"'
    if kind in _UNSUPPORTED_ATTRIBUTES:
        raise UnsupportedTensorError(
            f"{where} is of type {_UNSUPPORTED_ATTRIBUTES[kind]}",
            hint="native plugins receive int, float, string and list-of-those attributes",
        )
    if kind == 6:
        return name, Floats(floats)
    if kind == 7:
        return name, Ints(ints)
    if kind == 8:
        return name, Strings(strings)
    if kind in scalars:
        return name, scalars[kind]
    raise ModelFormatError(
        f"{where} has type {_ATTRIBUTE_TYPES.get(kind, kind)} but no value of that type",
        hint="the model is damaged or was written by an exporter that omits attribute types",
    )


def _read_value_info(reader: _Reader) -> ValueInfo:
    info = ValueInfo(name="")
    for field, _wire, value, offset in reader.fields():
        if field == 1:
            info.name = reader.string(value, offset, "name")
        elif field == 2:
            type_proto = reader.message(value, offset, "type")
            for f, _w, v, o in type_proto.fields():
                if f == 6:  # denotation: a note, no effect on the value
                    continue
                if f != 1:  # sequence, map, optional, sparse tensor
                    raise UnsupportedTensorError(
                        f'value "{info.name}" is not a dense tensor (TypeProto field {f})',
                        hint="native plugin graphs take and return dense tensors only",
                    )
                tensor = type_proto.message(v, o, "tensor_type")
                for tf, _tw, tv, to in tensor.fields():
                    if tf == 1:
                        info.elem_type = tensor.integer(tv, to, "elem_type")
                    elif tf == 2:
                        info.shape = []
                        shape = tensor.message(tv, to, "shape")
                        for sf, _sw, sv, so in shape.fields():
                            if sf != 1:
                                continue
                            dim = shape.message(sv, so, "dim")
                            size: int | str = ""
                            for df, _dw, dv, do in dim.fields():
                                if df == 1:
                                    size = dim.integer(dv, do, "dim_value")
                                elif df == 2:
                                    size = dim.string(dv, do, "dim_param")
                            info.shape.append(size)
    return info
