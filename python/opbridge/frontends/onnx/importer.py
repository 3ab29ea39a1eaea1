"""ONNX models (read with the `onnx` package) -> opbridge graphs.

Nodes of a custom domain are resolved through the registry's schemas: the
model must import the domain at a version the registered domain covers, and
the op gets the schema with the highest since_version not above it (see
opbridge.schemas.opsets). Attributes are read into the op's attribute class,
output dtypes and shapes come from the schema's inference function.

Standard ONNX operators (domain "" / ai.onnx) are converted by the ONNX
operator converters; until those exist for an op, a model using it is
refused with the list of every such node at once.
"""

import copy
import pathlib
from typing import Any

import numpy as np

from opbridge.errors import ModelFormatError, UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.onnx.dtypes import ONNX_DTYPES
from opbridge.ir import Graph, Node, Tensor
from opbridge.schemas.inference import infer_node
from opbridge.schemas.onnx_export import attribute_from_onnx

ONNX_DOMAINS = frozenset({"", "ai.onnx"})
MAX_MODEL_BYTES = 256 * 1024 * 1024


def _dtype(element_type: int, where: str) -> Any:
    dtype = ONNX_DTYPES.get(element_type)
    if dtype is None:
        raise UnsupportedTensorError(
            f"{where}: ONNX element type {element_type} is not supported",
            hint=f"supported: {', '.join(d.value for d in ONNX_DTYPES.values())}",
        )
    return dtype


def _value_info_tensor(index: int, info: Any) -> Tensor:
    where = f'graph input "{info.name}"'
    if not info.type.HasField("tensor_type"):
        raise UnsupportedTensorError(f"{where} is not a tensor", hint="opbridge takes tensor inputs only")
    tensor_type = info.type.tensor_type
    if not tensor_type.HasField("shape"):
        raise UnsupportedTensorError(f"{where} has no shape", hint="export the model with input shapes")
    shape = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tensor_type.shape.dim)
    return Tensor(index, info.name, _dtype(tensor_type.elem_type, where), shape)


def read_onnx_model(data: bytes, context: Any, *, source: str = "<bytes>") -> Graph:
    """The graph of a serialized ONNX model; typed errors for damaged files and unknown ops."""
    import onnx
    from google.protobuf.message import DecodeError

    if len(data) > MAX_MODEL_BYTES:
        raise ModelFormatError(f"{source}: {len(data)} bytes is larger than the {MAX_MODEL_BYTES}-byte limit")
    try:
        model = onnx.load_model_from_string(data)
    except (DecodeError, ValueError, RuntimeError) as error:
        raise ModelFormatError(f"{source}: not a readable ONNX model: {error}", hint="re-export the model") from None
    if not model.HasField("graph"):
        raise ModelFormatError(f"{source}: the model has no graph", hint="re-export the model")
    imports: dict[str, int] = {}
    for entry in model.opset_import:
        domain = "" if entry.domain == "ai.onnx" else entry.domain
        if domain in imports:
            raise ModelFormatError(f"{source}: domain {entry.domain or 'ai.onnx'!r} is imported twice")
        imports[domain] = entry.version
    return _convert_graph(model.graph, imports, context, source)


def load_onnx_model(path: pathlib.Path | str, context: Any) -> Graph:
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ModelFormatError(f"cannot read model {path}: {error.strerror}", hint="check the path") from None
    return read_onnx_model(data, context, source=str(path))


def _convert_graph(onnx_graph: Any, imports: dict[str, int], context: Any, source: str) -> Graph:
    import onnx

    schemas = context.schemas()
    tensors: list[Tensor] = []
    by_name: dict[str, int] = {}

    def add(tensor: Tensor) -> int:
        if tensor.name in by_name:
            raise ModelFormatError(f'{source}: value "{tensor.name}" is defined twice', hint="the graph is not SSA")
        tensors.append(tensor)
        by_name[tensor.name] = tensor.index
        return tensor.index

    for initializer in onnx_graph.initializer:
        where = f'initializer "{initializer.name}"'
        dtype = _dtype(initializer.data_type, where)
        try:
            array = onnx.numpy_helper.to_array(initializer)
        except Exception as error:  # the onnx package raises assorted errors on damaged tensors
            raise ModelFormatError(f"{source}: {where} is damaged: {error}") from None
        add(Tensor(len(tensors), initializer.name, dtype, tuple(array.shape), data=np.asarray(array, dtype.numpy)))
    inputs = [add(_value_info_tensor(len(tensors), info)) for info in onnx_graph.input if info.name not in by_name]
    # A probe graph for the schemas' inference: the tensors so far, no nodes.
    probe = Graph(onnx_graph.name or "main", [], [], [], [])
    nodes: list[Node] = []
    unsupported: list[str] = []
    for position, onnx_node in enumerate(onnx_graph.node):
        name = onnx_node.name or f"{onnx_node.op_type}_{position}"
        where = f'node {position} ({onnx_node.domain or "ai.onnx"}.{onnx_node.op_type} "{name}")'
        domain = "" if onnx_node.domain == "ai.onnx" else onnx_node.domain
        if domain in ONNX_DOMAINS:
            unsupported.append(f"{onnx_node.op_type} ({where})")
            continue
        if domain not in imports:
            raise ModelFormatError(
                f"{source}: {where} uses domain {domain!r}, which the model does not import",
                hint="add the domain to the model's opset_import",
            )
        schema, op_key = schemas.select(domain, onnx_node.op_type, imports[domain], f"{source}: {where}")
        specs = {spec.name: spec for spec in schema.attributes}
        values = {}
        for attribute in onnx_node.attribute:
            spec = specs.get(attribute.name)
            if spec is None:
                raise ModelFormatError(
                    f"{source}: {where} has attribute {attribute.name!r}, which {schema.describe()} does not declare",
                    hint=f"declared: {', '.join(specs) or 'none'}",
                )
            values[spec.name] = attribute_from_onnx(spec, onnx.helper.get_attribute_value(attribute), where)
        missing = [s.name for s in schema.attributes if s.required and s.name not in values]
        if missing:
            raise ModelFormatError(f"{source}: {where} lacks required attributes {missing}")
        attributes = None if schema.attributes_class is None else schema.attributes_class(**values)
        node_inputs: list[int | None] = []
        for input_name in onnx_node.input:
            if not input_name:
                node_inputs.append(None)
            elif input_name not in by_name:
                raise ModelFormatError(f'{source}: {where} reads "{input_name}" before any node writes it')
            else:
                node_inputs.append(by_name[input_name])
        node = Node(len(nodes), name, op_key, node_inputs, [], attributes)
        current = copy.copy(probe)
        current.tensors = tensors
        node.outputs = [-1] * len(onnx_node.output)  # counted by the schema's arity check
        inferred = infer_node(current, node, schema)
        node.outputs = [
            add(Tensor(len(tensors), output_name, result.dtype, result.shape))
            for output_name, result in zip(onnx_node.output, inferred, strict=True)
        ]
        nodes.append(node)
    if unsupported:
        raise UnsupportedOperatorError(
            f"{source}: standard ONNX operators are not converted yet: {'; '.join(unsupported)}",
            hint="opbridge imports ONNX nodes of registered custom domains; convert the rest with the LiteRT path",
        )
    outputs = []
    for info in onnx_graph.output:
        if info.name not in by_name:
            raise ModelFormatError(f'{source}: graph output "{info.name}" is never written')
        outputs.append(by_name[info.name])
    try:
        return Graph(onnx_graph.name or "main", tensors, nodes, inputs, outputs)
    except ValueError as error:
        raise ModelFormatError(f"{source}: {error}") from None
