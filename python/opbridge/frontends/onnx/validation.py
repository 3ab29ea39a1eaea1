# SPDX-License-Identifier: Apache-2.0
"""An ONNX ModelProto's structure checked before anything reads it (importer.read_onnx_model).

ONNX files come from anywhere, and a damaged one must be refused with one error naming what is
wrong, never converted into something else, never a traceback of the `onnx` package. In order:

1. `check_structure`, on the parsed ModelProto: every name valid UTF-8; the default ONNX domain
   imported; a graph with nodes, inputs and outputs (each missing one named); no name defined twice
   (initializers, graph inputs, node outputs); every node input written by a graph input, an
   initializer or an earlier node (an unknown name, and a graph whose nodes are out of order, told
   apart); every graph output written; no negative dimension in a graph input's shape.
2. `check_tensor_data`, on each initializer and each tensor attribute (after the external data is
   read in): a known element type, no negative dimension, a size within the model limit, and data of
   exactly the size the dims and element type give (raw_data bytes, or the count of typed values).
3. `check_with_onnx`: each node through onnx.checker (its attributes against its operator's schema).
   It may raise anything on a malicious file: its message is rephrased, naming the node.
4. `check_types`: ONNX's type and shape inference in strict mode, as onnxruntime runs it on load,
   and each standard node's input types against its schema's type constraints (the inference leaves
   initializers' types unchecked; onnxruntime does not).
5. `check_node_rules`: what onnxruntime's kernels refuse when they are created and ONNX's inference
   does not check: BatchNormalization parameters that are not vectors of one size, a pool's
   storage_order other than 0 or 1, or a MaxPool pad as large as its window.
"""

import re
from typing import Any

from opbridge.errors import ModelFormatError

HINT = "the file is damaged or was not written by an ONNX exporter; re-export the model"
TENSOR_ATTRIBUTE = 4  # onnx.AttributeProto.TENSOR
# Bits per element of the sub-byte element types (UINT4, INT4, FLOAT4E2M1, UINT2, INT2, FLOAT6E2M3, FLOAT6E3M2).
_BITS = {21: 4, 22: 4, 23: 4, 25: 2, 26: 2, 27: 6, 28: 6}


def _name(value: Any, where: str, source: str) -> str:
    """A name from the model as text; one that is not valid UTF-8 is a ModelFormatError."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise ModelFormatError(
                f"{source}: {where} has a name that is not valid UTF-8 text ({value[:40]!r})", hint=HINT
            ) from None
    return str(value)


def check_structure(model: Any, source: str) -> None:
    """Step 1 of the module docstring."""
    graph = model.graph
    imports = {_name(entry.domain, "an opset import", source) for entry in model.opset_import}
    if not imports & {"", "ai.onnx"}:
        raise ModelFormatError(
            f"{source}: the model does not import the default ONNX domain (its opset_import lists "
            f"{', '.join(repr(d) for d in sorted(imports)) or 'nothing'})",
            hint="every ONNX model imports the default domain at its opset version; re-export the model",
        )
    initializers: dict[str, int] = {}
    for position, tensor in enumerate(graph.initializer):
        name = _name(tensor.name, f"initializer {position}", source)
        if name in initializers:
            raise ModelFormatError(f'{source}: initializer "{name}" is defined twice', hint=HINT)
        initializers[name] = position
    inputs: set[str] = set()
    for position, info in enumerate(graph.input):
        name = _name(info.name, f"graph input {position}", source)
        if name in inputs:
            raise ModelFormatError(f'{source}: graph input "{name}" is listed twice', hint=HINT)
        inputs.add(name)
        tensor = info.type.tensor_type
        if info.type.HasField("tensor_type") and tensor.HasField("shape"):
            for axis, dim in enumerate(tensor.shape.dim):
                if dim.HasField("dim_value") and dim.dim_value < 0:
                    raise ModelFormatError(
                        f'{source}: graph input "{name}" has dimension {axis} of size {dim.dim_value}', hint=HINT
                    )
    if model.ir_version < 4:  # IR version 3 lists every initializer among the graph inputs
        unlisted = next((name for name in initializers if name not in inputs), None)
        if unlisted is not None:
            raise ModelFormatError(
                f'{source}: initializer "{unlisted}" is not among the graph inputs, where IR version '
                f"{model.ir_version} requires every initializer",
                hint=HINT,
            )
    missing = [
        what
        for what, count in (
            ("nodes", len(graph.node)),
            ("inputs", len(inputs - initializers.keys())),
            ("outputs", len(graph.output)),
        )
        if not count
    ]
    if missing:
        raise ModelFormatError(
            f"{source}: the graph has no {' and no '.join(missing)}: there is nothing to convert",
            hint="a model for opbridge computes its outputs from its inputs with at least one operator; "
            "if the file should have them, it is damaged: re-export the model",
        )
    defined = inputs | initializers.keys()
    writers: dict[str, int] = {}
    for position, node in enumerate(graph.node):
        for output in node.output:
            name = _name(output, f"node {position}'s output", source)
            if not name:
                continue
            if name in defined or name in writers:
                earlier = f"node {writers[name]}" if name in writers else "a graph input or initializer"
                raise ModelFormatError(
                    f'{source}: {_describe(node, position, source)} writes "{name}", which {earlier} defines '
                    "already (a value is defined once in an ONNX graph)",
                    hint=HINT,
                )
            writers[name] = position
    for position, node in enumerate(graph.node):
        for attribute in node.attribute:
            _name(attribute.name, f"an attribute of {_describe(node, position, source)}", source)
        for index, value in enumerate(node.input):
            name = _name(value, f"input {index} of {_describe(node, position, source)}", source)
            if not name or name in defined or writers.get(name, position) < position:
                continue
            if name in writers:
                raise ModelFormatError(
                    f'{source}: {_describe(node, position, source)} reads "{name}", which node {writers[name]} '
                    "writes later: the nodes are not in topological order",
                    hint="ONNX requires each node after the nodes it reads; sort the graph "
                    "(onnx.utils, or re-export the model)",
                )
            raise ModelFormatError(
                f'{source}: {_describe(node, position, source)} reads "{name}" (input {index}), which is no '
                "graph input, initializer or node output",
                hint=HINT,
            )
    for position, info in enumerate(graph.output):
        name = _name(info.name, f"graph output {position}", source)
        if name not in defined and name not in writers:
            raise ModelFormatError(
                f'{source}: graph output "{name}" is written by no node (nor a graph input or initializer)',
                hint=HINT,
            )


def _describe(node: Any, position: int, source: str) -> str:
    op_type = _name(node.op_type, f"node {position}", source)
    name = _name(node.name, f"node {position}", source) or f"{op_type}_{position}"
    domain = _name(node.domain, f"node {position}", source) or "ai.onnx"
    return f'node {position} ({domain}.{op_type} "{name}")'


def check_tensor_data(tensor: Any, where: str, limit: int) -> None:
    """Step 2 of the module docstring for one TensorProto (`where`: 'model.onnx: initializer "w"');
    tensors whose data is still in an external file are checked when it has been read."""
    import onnx
    import onnx.helper

    if tensor.data_type not in onnx.TensorProto.DataType.values() or tensor.data_type == 0:
        raise ModelFormatError(f"{where} has element type {tensor.data_type}, which is no ONNX element type", hint=HINT)
    dims = list(tensor.dims)
    if any(d < 0 for d in dims):
        raise ModelFormatError(f"{where} has a negative dimension: dims {dims}", hint=HINT)
    elements = 1
    for d in dims:
        elements *= d  # a Python int: no overflow
    if elements >= 2**63:
        raise ModelFormatError(f"{where}: the product of its dims {dims} overflows a 64-bit size", hint=HINT)
    if tensor.data_location == onnx.TensorProto.EXTERNAL or tensor.data_type == onnx.TensorProto.STRING:
        return
    bits = _BITS.get(tensor.data_type, 8)
    nbytes = tensor_nbytes(tensor) or 0
    if nbytes > limit:
        raise ModelFormatError(
            f"{where} declares dims {dims}: {nbytes:,} bytes, larger than the {limit:,}-byte model limit", hint=HINT
        )
    if tensor.HasField("raw_data"):
        if len(tensor.raw_data) != nbytes:
            raise ModelFormatError(
                f"{where} has {len(tensor.raw_data):,} bytes of raw_data; its dims {dims} of "
                f"{onnx.TensorProto.DataType.Name(tensor.data_type)} take {nbytes:,}",
                hint=HINT,
            )
        return
    field = onnx.helper.tensor_dtype_to_field(tensor.data_type)
    count = len(getattr(tensor, field))
    per_element = 2 if tensor.data_type in (onnx.TensorProto.COMPLEX64, onnx.TensorProto.COMPLEX128) else 1
    expected = elements * per_element if bits >= 8 else None  # sub-byte types pack several values a word
    if expected is not None and count != expected:
        raise ModelFormatError(
            f"{where} has {count:,} values in {field}; its dims {dims} take {expected:,}"
            + (" (and it has no raw_data)" if not count else ""),
            hint=HINT,
        )


def tensor_nbytes(tensor: Any) -> int | None:
    """The bytes a TensorProto's dims and element type take (None: strings, or no known element type)."""
    import numpy as np
    import onnx
    import onnx.helper

    if tensor.data_type in (0, onnx.TensorProto.STRING) or tensor.data_type not in onnx.TensorProto.DataType.values():
        return None
    elements = 1
    for d in tensor.dims:
        elements *= max(int(d), 0)
    bits = _BITS.get(tensor.data_type) or np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type)).itemsize * 8
    return (elements * bits + 7) // 8


def check_initializers(model: Any, source: str, limit: int) -> None:
    """check_tensor_data for every initializer and every tensor attribute of a node (Constant's value)."""
    for tensor in model.graph.initializer:
        check_tensor_data(tensor, f'{source}: initializer "{_name(tensor.name, "an initializer", source)}"', limit)
    for position, node in enumerate(model.graph.node):
        for attribute in node.attribute:
            if attribute.type == TENSOR_ATTRIBUTE and attribute.HasField("t"):
                where = f"{source}: attribute {attribute.name!r} of {_describe(node, position, source)}"
                check_tensor_data(attribute.t, where, limit)


def check_with_onnx(model: Any, source: str) -> None:
    """Step 3 of the module docstring: each node through onnx.checker.check_node (its attributes against
    its operator's schema at the imported opset; custom domains are left to their own schemas). Not
    check_model: it also requires shapes on the graph outputs' types, which exporters leave out."""
    import onnx
    import onnx.checker

    if not 1 <= model.ir_version <= onnx.IR_VERSION:
        raise ModelFormatError(
            f"{source}: ir_version {model.ir_version} is outside the IR versions 1 to {onnx.IR_VERSION} that the "
            f"installed onnx {onnx.__version__} reads",
            hint="re-export the model, or check that the file was copied completely",
        )
    context = onnx.checker.C.CheckerContext()
    context.ir_version = model.ir_version
    context.opset_imports = {entry.domain: entry.version for entry in model.opset_import}
    scope = onnx.checker.C.LexicalScopeContext()
    for position, node in enumerate(model.graph.node):
        try:
            onnx.checker.C.check_node(node.SerializeToString(), context, scope)
        except Exception as error:  # ValidationError mostly; anything on a malicious file
            text = str(error).strip()
            reason = text.splitlines()[0] if text else f"{type(error).__name__} (without a readable message)"
            raise ModelFormatError(
                f"{source}: {_describe(node, position, source)}: onnx.checker refuses it: {reason}", hint=HINT
            ) from None


# The fields of onnx.proto whose value is a message, by message: what wire_problem descends into
# ("message": one whose own fields are scanned without names).
_MESSAGES: dict[str, dict[int, tuple[str, str]]] = {
    "ModelProto": {7: ("graph", "GraphProto"), 8: ("opset_import", "message"), 25: ("functions", "message")},
    "GraphProto": {
        1: ("node", "NodeProto"),
        5: ("initializer", "TensorProto"),
        11: ("input", "message"),
        12: ("output", "message"),
        13: ("value_info", "message"),
    },
    "NodeProto": {5: ("attribute", "AttributeProto")},
    "AttributeProto": {5: ("t", "TensorProto"), 6: ("g", "GraphProto")},
    "TensorProto": {},
}
_NAMES = {"ModelProto": {1: "ir_version", 2: "producer_name", 5: "model_version"}, "TensorProto": {9: "raw_data"}}


class _WireError(Exception):
    pass


def _varint(data: bytes, at: int, end: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= end:
            raise _WireError(f"byte {at:,}: a number runs past the end of its message (the file is cut short?)")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7
        if shift >= 70:
            raise _WireError(f"byte {at:,}: a number longer than 10 bytes")


def _scan(data: bytes, at: int, end: int, message: str, path: str, depth: int) -> None:
    counts: dict[int, int] = {}
    while at < end:
        start = at
        tag, at = _varint(data, at, end)
        number, wire = tag >> 3, tag & 7
        known = _MESSAGES.get(message, {}).get(number)
        name = known[0] if known else _NAMES.get(message, {}).get(number, f"field {number}")
        index = counts.get(number, 0)
        counts[number] = index + 1
        label = name if name in ("graph", "t", "g") else f"{name}[{index}]"  # singular message fields: no index
        where = f"{path} > {label}" if path else label
        if number == 0:
            raise _WireError(f"byte {start:,} ({path or 'top level'}): field number 0 is not a protobuf field")
        if wire == 0:
            _, at = _varint(data, at, end)
        elif wire in (1, 5):
            at += 8 if wire == 1 else 4
            if at > end:
                raise _WireError(f"byte {start:,} ({where}): a fixed-size value runs past the end (cut short?)")
        elif wire == 2:
            length, at = _varint(data, at, end)
            if at + length > end:
                raise _WireError(
                    f"byte {start:,} ({where}): its length of {length:,} bytes runs past the end of "
                    f"{'the file' if not path else 'the message holding it'} ({end - at:,} bytes left): "
                    "the file is cut short or damaged"
                )
            if known and depth < 8:
                _scan(data, at, at + length, known[1], where, depth + 1)
            at += length
        else:
            kind = "a group (not used by ONNX)" if wire in (3, 4) else "not a protobuf wire type"
            raise _WireError(f"byte {start:,} ({where}): wire type {wire} is {kind}")


def wire_problem(data: bytes) -> str:
    """Where the protobuf encoding of a ModelProto breaks (for the message of a parse error), or ""."""
    try:
        _scan(data, 0, len(data), "ModelProto", "", 0)
    except _WireError as error:
        return str(error)
    return ""


def check_types(model: Any, source: str) -> None:
    """Step 4 of the module docstring: ONNX's type and shape inference in strict mode (what onnxruntime
    runs when it loads a model): an input of a type its operator does not take, type parameters bound to
    two types, attributes inconsistent with the inputs' shapes, an axis out of range, a declared shape
    that contradicts the inferred one. Its message is rephrased, naming the node."""
    import onnx
    import onnx.shape_inference

    try:
        onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    except Exception as error:  # InferenceError mostly; anything on a malicious file
        text = str(error).strip()
        reason = text.splitlines()[0] if text else f"{type(error).__name__} (without a readable message)"
        reason = re.sub(r"^\[\w+\] Inference error\(s\): ", "", reason)
        node = re.search(r"\(op_type:(\w+), node name: ([^)]*)\)", reason)
        where = f'node "{node.group(2)}" ({node.group(1)}): ' if node else _node_of_schema(model, reason)
        raise ModelFormatError(
            f"{source}: {where}ONNX type and shape inference refuses the model: {reason}",
            hint="a node's input types, shapes or attributes do not match its operator's schema: re-export the "
            "model, or give the node what the schema names",
        ) from None
    check_input_types(model, source)


def _node_of_schema(model: Any, reason: str) -> str:
    """`node "NAME" (OP): ` for a reason that names only a schema ("com.example.copy.CopyInput: schema
    ..."), as ONNX's inference does for a custom domain's function-less schema: its first node of that
    domain and op; "" when no node matches."""
    named = re.match(r"([\w.]+): schema ", reason)
    if named is None:
        return ""
    for node in model.graph.node:
        if f"{node.domain or 'ai.onnx'}.{node.op_type}" == named.group(1):
            return f'node "{node.name}" ({node.op_type}): '
    return ""


def _types(model: Any) -> dict[str, str]:
    """The type string ("tensor(float)") of each value whose type the model states or ONNX infers."""
    import onnx
    import onnx.shape_inference

    types: dict[str, str] = {}
    try:
        inferred = onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False)
    except Exception:  # check_types has reported what inference refuses
        inferred = model
    graph = inferred.graph
    for info in [*graph.value_info, *graph.input, *graph.output]:
        elem_type = info.type.tensor_type.elem_type if info.type.HasField("tensor_type") else 0
        if elem_type and elem_type in onnx.TensorProto.DataType.values():
            types[info.name] = f"tensor({onnx.TensorProto.DataType.Name(elem_type).lower()})"
    for tensor in model.graph.initializer:
        if tensor.data_type in onnx.TensorProto.DataType.values() and tensor.data_type:
            types[tensor.name] = f"tensor({onnx.TensorProto.DataType.Name(tensor.data_type).lower()})"
    return types


def check_input_types(model: Any, source: str) -> None:
    """Each standard node's inputs of known type against its schema: a type its constraint allows, and
    one type for every input bound to one constraint."""
    import onnx
    import onnx.defs

    versions = {("" if e.domain == "ai.onnx" else e.domain): e.version for e in model.opset_import}
    types = _types(model)
    for position, node in enumerate(model.graph.node):
        if node.domain not in ("", "ai.onnx"):
            continue
        try:
            schema = onnx.defs.get_schema(node.op_type, versions.get("", 1), "")
        except Exception:  # no such op: check_with_onnx has named it
            continue
        allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
        bound: dict[str, tuple[str, str]] = {}
        for index, name in enumerate(node.input):
            if not name or name not in types or not schema.inputs:
                continue
            formal = schema.inputs[min(index, len(schema.inputs) - 1)]
            have = types[name]
            if formal.type_str in allowed and have not in allowed[formal.type_str]:
                raise ModelFormatError(
                    f'{source}: {_describe(node, position, source)}: input {index} ("{name}") is a {have}, which '
                    f"{node.op_type}'s {formal.name} does not take ({', '.join(sorted(allowed[formal.type_str]))})",
                    hint=HINT,
                )
            if formal.type_str in allowed:
                first = bound.setdefault(formal.type_str, (name, have))
                if first[1] != have:
                    raise ModelFormatError(
                        f'{source}: {_describe(node, position, source)}: input {index} ("{name}") is a {have} and '
                        f'"{first[0]}" a {first[1]}, but {node.op_type} takes one type for both ({formal.type_str})',
                        hint=HINT,
                    )


def check_node_rules(model: Any, source: str) -> None:
    """Step 5 of the module docstring."""
    import onnx.helper
    import onnx.numpy_helper

    initializers = {t.name: t for t in model.graph.initializer}
    for position, node in enumerate(model.graph.node):
        if node.domain not in ("", "ai.onnx"):
            continue
        where = f"{source}: {_describe(node, position, source)}"
        try:
            attributes = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        except Exception:  # check_with_onnx has refused malformed attributes; nothing more to read here
            continue
        if node.op_type == "BatchNormalization":
            sizes = []
            for index, name in enumerate(node.input[1:5], 1):
                tensor = initializers.get(name)
                if tensor is None:
                    continue
                if len(tensor.dims) != 1:
                    raise ModelFormatError(
                        f'{where}: parameter {index} ("{name}") has dims {list(tensor.dims)}; BatchNormalization '
                        "takes one value per channel",
                        hint=HINT,
                    )
                sizes.append(int(tensor.dims[0]))
            if len(set(sizes)) > 1:
                raise ModelFormatError(
                    f"{where}: its scale, bias, mean and variance have {sizes} values; one per channel each",
                    hint=HINT,
                )
        if node.op_type in ("MaxPool", "AveragePool", "LpPool"):
            order = attributes.get("storage_order", 0)
            if order not in (0, 1):
                raise ModelFormatError(f"{where}: storage_order={order} is not 0 or 1", hint=HINT)
            kernel = list(attributes.get("kernel_shape", []))
            pads = list(attributes.get("pads", []))
            # AveragePool's converter names its own pads rule (the filter's); MaxPool's reads pads as they come.
            if node.op_type == "MaxPool" and kernel and len(pads) == 2 * len(kernel):
                for axis, size in enumerate(kernel):
                    if pads[axis] >= size or pads[axis + len(kernel)] >= size:
                        raise ModelFormatError(
                            f"{where}: pads {pads} are not all smaller than the window {kernel}: a window in the "
                            "padding alone has no value",
                            hint=HINT,
                        )
