# SPDX-License-Identifier: Apache-2.0
"""The graph as readable JSON, and back.

    {"format": "opbridge.ir", "version": 1, "name": ..., "inputs": [0], "outputs": [7],
     "tensors": [{"name": ..., "dtype": "int8", "shape": [1, 49, 40],
                  "quantization": {"scales": [...], "zero_points": [...], "axis": null},
                  "data": [..] or {"base64": ...}}, ...],
     "nodes": [{"name": ..., "op": "CONV_2D", "domain": "opbridge", "version": 1,
                "inputs": [0, 1, 2], "outputs": [3], "attributes": {"padding": "SAME", ...}}, ...]}

Tensors and nodes are listed in index order. Attributes are written and read
by one walk (opbridge.ir.attributes.visit_attributes) over the op's
attribute class, found through its schema, so plugin ops round-trip like
built-ins. Small constants are written as numbers; larger ones as the base64
of their little-endian bytes. `graph_differences` lists how two graphs differ.
"""

import base64
import json
from typing import Any

import numpy as np

from opbridge.errors import ModelFormatError
from opbridge.ir.attributes import attributes_from_dict, attributes_to_dict
from opbridge.ir.graph import DType, Graph, Node, Quantization, Tensor

FORMAT = "opbridge.ir"
VERSION = 1
LIST_LIMIT = 64  # constants with at most this many elements are written as numbers


def _attributes_class(registry: Any, op_type: str, where: str) -> tuple[type | None, str, int]:
    """(attribute class, domain, version) of an op from the registry's definition and schema."""
    definition = registry.get(op_type)
    if definition is None:
        raise ModelFormatError(
            f"{where}: operator {op_type!r} is not registered", hint="load the plugin that defines it"
        )
    schema = definition.schema
    if schema is None:
        raise ModelFormatError(
            f"{where}: operator {op_type!r} has no schema, so its attributes cannot be written or read",
            hint="give its OperatorDefinition a schema (docs/schemas.md)",
        )
    return schema.attributes_class, schema.domain, schema.since_version


def _tensor_to_json(tensor: Tensor) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": tensor.name, "dtype": tensor.dtype.value, "shape": list(tensor.shape)}
    if tensor.quantization is not None:
        q = tensor.quantization
        entry["quantization"] = {"scales": list(q.scales), "zero_points": list(q.zero_points), "axis": q.axis}
    if tensor.data is not None:
        data = np.ascontiguousarray(tensor.data, dtype=tensor.dtype.numpy)
        if data.size <= LIST_LIMIT and tensor.dtype not in (DType.FLOAT16, DType.BFLOAT16):
            entry["data"] = data.ravel().tolist()
        else:
            entry["data"] = {"base64": base64.b64encode(data.astype(data.dtype.newbyteorder("<")).tobytes()).decode()}
    return entry


def graph_to_json(graph: Graph, registry: Any) -> str:
    """The graph as JSON text; `registry` (an OperatorRegistry) gives each op's schema."""
    nodes = []
    for node in graph.nodes:
        attributes_class, domain, version = _attributes_class(registry, node.op_type, node.describe())
        nodes.append(
            {
                "name": node.name,
                "op": node.op_type,
                "domain": domain,
                "version": version,
                "inputs": list(node.inputs),
                "outputs": list(node.outputs),
                "attributes": attributes_to_dict(attributes_class, node.attributes),
            }
        )
    document = {
        "format": FORMAT,
        "version": VERSION,
        "name": graph.name,
        "inputs": list(graph.inputs),
        "outputs": list(graph.outputs),
        "tensors": [_tensor_to_json(t) for t in graph.tensors],
        "nodes": nodes,
    }
    return json.dumps(document, indent=1, allow_nan=True) + "\n"


def _field(entry: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in entry:
        raise ModelFormatError(f"{where}: {key!r} is missing")
    value = entry[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ModelFormatError(f"{where}: {key!r} = {value!r} has the wrong type")
    return value


def _index_list(values: Any, limit: int, where: str, optional: bool = False) -> list[Any]:
    if not isinstance(values, list):
        raise ModelFormatError(f"{where}: expected a list of tensor indices, got {values!r}")
    for value in values:
        if value is None and optional:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
            raise ModelFormatError(f"{where}: tensor index {value!r} is not in 0..{limit - 1}")
    return list(values)


def _tensor_from_json(index: int, entry: Any) -> Tensor:
    where = f"tensors[{index}]"
    if not isinstance(entry, dict):
        raise ModelFormatError(f"{where}: expected an object")
    try:
        dtype = DType(_field(entry, "dtype", str, where))
    except ValueError:
        raise ModelFormatError(
            f"{where}: unknown dtype {entry['dtype']!r}", hint=f"one of {', '.join(d.value for d in DType)}"
        ) from None
    shape = _field(entry, "shape", list, where)
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= -1 for d in shape):
        raise ModelFormatError(f"{where}: shape {shape!r} must hold sizes >= 0 (or -1)")
    quantization = None
    if entry.get("quantization") is not None:
        q = entry["quantization"]
        try:
            quantization = Quantization(
                tuple(float(s) for s in q["scales"]), tuple(int(z) for z in q["zero_points"]), q.get("axis")
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ModelFormatError(f"{where}: bad quantization {q!r}: {error}") from None
    data = None
    if "data" in entry:
        count = int(np.prod(shape, dtype=np.int64))
        raw = entry["data"]
        try:
            if isinstance(raw, dict):
                array = np.frombuffer(base64.b64decode(raw["base64"], validate=True), dtype.numpy.newbyteorder("<"))
            else:
                array = np.array(raw, dtype=dtype.numpy)
        except (KeyError, TypeError, ValueError, OverflowError) as error:
            raise ModelFormatError(f"{where}: bad data: {error}") from None
        if array.size != count:
            raise ModelFormatError(f"{where}: data has {array.size} elements, shape {shape} needs {count}")
        data = array.astype(dtype.numpy).reshape(shape)
    return Tensor(index, _field(entry, "name", str, where), dtype, tuple(shape), quantization, data)


def graph_from_json(text: str, registry: Any) -> Graph:
    """The graph `graph_to_json` wrote; ModelFormatError names what is wrong with anything else."""
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ModelFormatError(f"not JSON: {error}", hint="pass a file written by graph_to_json") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ModelFormatError(f"not an opbridge IR document (format must be {FORMAT!r})")
    if document.get("version") != VERSION:
        raise ModelFormatError(
            f"IR version {document.get('version')!r} is not supported (this opbridge reads {VERSION})"
        )
    raw_tensors = _field(document, "tensors", list, "document")
    tensors = [_tensor_from_json(i, entry) for i, entry in enumerate(raw_tensors)]
    nodes = []
    for position, entry in enumerate(_field(document, "nodes", list, "document")):
        where = f"nodes[{position}]"
        if not isinstance(entry, dict):
            raise ModelFormatError(f"{where}: expected an object")
        op_type = _field(entry, "op", str, where)
        name = _field(entry, "name", str, where)
        where = f'node {position} ({op_type} "{name}")'
        attributes_class, domain, version = _attributes_class(registry, op_type, where)
        if entry.get("domain", domain) != domain or entry.get("version", version) != version:
            raise ModelFormatError(
                f"{where}: written for {entry.get('domain')!r} version {entry.get('version')!r}, "
                f"but {op_type} here is {domain!r} version {version}",
                hint="load it with the plugins (and versions) it was written with",
            )
        inputs = _index_list(_field(entry, "inputs", list, where), len(tensors), where, optional=True)
        outputs = _index_list(_field(entry, "outputs", list, where), len(tensors), where)
        attributes = attributes_from_dict(attributes_class, _field(entry, "attributes", dict, where), where)
        nodes.append(Node(position, name, op_type, inputs, outputs, attributes))
    try:
        return Graph(
            name=_field(document, "name", str, "document"),
            tensors=tensors,
            nodes=nodes,
            inputs=_index_list(_field(document, "inputs", list, "document"), len(tensors), "graph inputs"),
            outputs=_index_list(_field(document, "outputs", list, "document"), len(tensors), "graph outputs"),
        )
    except ValueError as error:
        raise ModelFormatError(f"the graph is not scheduled: {error}") from None


def _tensors_equal(a: Tensor, b: Tensor) -> bool:
    if (a.index, a.name, a.dtype, tuple(a.shape), a.quantization) != (
        b.index,
        b.name,
        b.dtype,
        tuple(b.shape),
        b.quantization,
    ):
        return False
    if (a.data is None) != (b.data is None):
        return False
    return a.data is None or (a.data.shape == b.data.shape and a.data.tobytes() == b.data.tobytes())


def graph_differences(a: Graph, b: Graph) -> list[str]:
    """What differs between two graphs (empty: identical, constants compared byte for byte)."""
    differences = []
    for field in ("name", "inputs", "outputs"):
        if getattr(a, field) != getattr(b, field):
            differences.append(f"{field}: {getattr(a, field)!r} != {getattr(b, field)!r}")
    if len(a.tensors) != len(b.tensors):
        differences.append(f"{len(a.tensors)} tensors != {len(b.tensors)}")
    differences += [
        f"{x.describe()} != {y.describe()}"
        for x, y in zip(a.tensors, b.tensors, strict=False)
        if not _tensors_equal(x, y)
    ]
    if len(a.nodes) != len(b.nodes):
        differences.append(f"{len(a.nodes)} nodes != {len(b.nodes)}")
    differences += [f"{x.describe()}: {x} != {y}" for x, y in zip(a.nodes, b.nodes, strict=False) if x != y]
    return differences
