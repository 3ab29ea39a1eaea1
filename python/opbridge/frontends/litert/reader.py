# SPDX-License-Identifier: Apache-2.0
"""Reads a LiteRT flatbuffer (subgraph 0) into an opbridge Graph.

Resource variables (CALL_ONCE's init subgraph, VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) are
resolved by resource_variables.py into READ_VARIABLE and ASSIGN_VARIABLE nodes named by variable.

The flatbuffer is untrusted input: verifier.py checks its whole structure against the LiteRT schema first
(every offset, vtable, vector and string in the file, unions resolved, nesting and table count limited)
and that subgraph 0 has operators, inputs and outputs, naming the first bad field. The reader keeps its own
checks: every vector length and index is checked against the file before it is used, and whatever the
`tflite` accessors raise on a damaged file becomes a ModelFormatError naming the part that was being read.
Unsupported operators are all collected and reported together.
"""

import dataclasses
import pathlib
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import (
    ModelFormatError,
    OpbridgeError,
    OperatorPluginError,
    UnsupportedOperatorError,
    UnsupportedTensorError,
)
from opbridge.frontends.litert.nodes import LiteRTNode, builtin_operator_code, custom_code_to_op_key
from opbridge.frontends.litert.resource_variables import ResourceVariables, add_initial_values, read_resource_variables
from opbridge.frontends.litert.static_shapes import fold_static_shapes
from opbridge.frontends.litert.verifier import verify_litert_model
from opbridge.frontends.unsupported import UnsupportedNode, unsupported_operators_error
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.passes.rewrite import remove_unused_tensors, renumber
from opbridge.registry_context import RegistryContext

FILE_IDENTIFIER = b"TFL3"
CUSTOM_OPERATOR_CODE = BuiltinOperator.CUSTOM

# tflite TensorType -> DType, for the types opbridge handles.
_TENSOR_TYPES = {
    0: DType.FLOAT32,
    2: DType.INT32,
    3: DType.UINT8,
    4: DType.INT64,
    6: DType.BOOL,
    7: DType.INT16,
    9: DType.INT8,
    12: DType.UINT64,
    15: DType.UINT32,
}
_TENSOR_TYPE_NAMES = {value: name for name, value in vars(tflite.TensorType).items() if not name.startswith("_")}
BUILTIN_OPERATOR_NAMES = {value: name for name, value in vars(BuiltinOperator).items() if not name.startswith("_")}

T = TypeVar("T")


class _Reader:
    def __init__(self, data: bytes, source: str) -> None:
        self.data = data
        self.source = source

    def read(self, what: str, read: Callable[[], T]) -> T:
        """Runs one accessor; a damaged file becomes a ModelFormatError naming `what`."""
        try:
            return read()
        except OpbridgeError:
            raise
        except Exception as error:  # the flatbuffers runtime raises many kinds
            raise ModelFormatError(
                f"{self.source}: cannot read {what}: the file is damaged ({type(error).__name__}: {error})",
                hint="re-export the model, or check that the file was copied completely",
            ) from None

    def length(self, what: str, read: Callable[[], int], element_bytes: int = 4) -> int:
        """A vector length, checked against the file size so loops stay bounded."""
        count = self.read(what, read)
        if count < 0 or count * element_bytes > len(self.data):
            raise ModelFormatError(
                f"{self.source}: {what} claims {count} entries, more than a {len(self.data)}-byte file can hold",
                hint="the file is damaged or not a LiteRT model",
            )
        return count


def _apply_model_hooks(context: RegistryContext, data: bytes, source: str) -> bytes:
    """Each registered hook rewrites the flatbuffer, in registration order."""
    for name, hook in context.litert_model_hooks.items():
        try:
            rewritten = hook(bytes(data))
        except OpbridgeError:
            raise
        except Exception as error:
            raise OperatorPluginError(
                f"{source}: model hook {name!r} failed: {type(error).__name__}: {error}",
                hint=f"fix or unregister the hook (registered by {context.litert_model_hooks.origin(name)})",
            ) from error
        if not isinstance(rewritten, bytes | bytearray):
            raise OperatorPluginError(
                f"{source}: model hook {name!r} returned {type(rewritten).__name__}, not bytes",
                hint="a model hook returns the rewritten .tflite bytes",
            )
        data = bytes(rewritten)
    return data


@dataclasses.dataclass(frozen=True)
class _Tables:
    """The model's root tables the reader walks, with their vector lengths checked."""

    model: Any  # tflite.Model
    subgraph: Any  # tflite.SubGraph: subgraph 0
    buffer_count: int
    operator_code_count: int


@dataclasses.dataclass(frozen=True)
class _Resolved:
    """An operator with a registered parser: its parser's view and its name for messages."""

    view: LiteRTNode
    op_name: str  # the builtin operator's name, or the custom code


def read_litert_model(data: bytes, context: RegistryContext, source: str = "<bytes>") -> Graph:
    """Parses LiteRT flatbuffer bytes into a Graph; each node's attributes come
    from the parser registered for its key (`context.litert_parsers`)."""
    data = _apply_model_hooks(context, data, source)
    _check_identifier(data, source)
    verify_litert_model(data, source)
    reader = _Reader(data, source)
    tables = _read_tables(reader)

    def read_tensor(subgraph: Any, index: int, resource: bool) -> Tensor:
        return _read_tensor(reader, tables.model, subgraph, index, tables.buffer_count, resource)

    variables = read_resource_variables(reader, tables.model, tables.subgraph, tables.operator_code_count, read_tensor)
    # Operators first: every unsupported one is reported at once, before
    # tensor-level problems that only matter for a model that can convert.
    operators = _resolve_operators(reader, context, tables, variables.operators)
    tensors = [
        read_tensor(tables.subgraph, index, index in variables.handles)
        for index in range(reader.length("the tensor list", tables.subgraph.TensorsLength))
    ]
    nodes = [_build_node(reader, context, resolved, tensors, position) for position, resolved in enumerate(operators)]
    if not variables.present:
        graph = _build_graph(reader, tables.subgraph, tensors, nodes)
    else:
        graph = _with_variables(reader, tables.subgraph, tensors, nodes, [r.view.index for r in operators], variables)
    return fold_static_shapes(graph, context.operators)


def _with_variables(
    reader: _Reader,
    subgraph: Any,
    tensors: list[Tensor],
    nodes: list[Node],
    positions: list[int],
    variables: ResourceVariables,
) -> Graph:
    """The graph with the variable nodes in their operators' places, later reads of a variable replaced
    by its first, and the RESOURCE handles (no longer read) dropped."""
    add_initial_values(variables, tensors)
    by_operator = dict(zip(positions, nodes, strict=True)) | variables.nodes
    ordered = [by_operator[index] for index in sorted(by_operator)]
    alias = variables.aliases
    for node in ordered:
        node.inputs = [None if i is None else alias.get(i, i) for i in node.inputs]
    graph = _build_graph(reader, subgraph, tensors, renumber(ordered), alias)
    return remove_unused_tensors(graph)


def _check_identifier(data: bytes, source: str) -> None:
    """The bytes are long enough to hold a flatbuffer header and carry LiteRT's file identifier."""
    if len(data) < 8:
        raise ModelFormatError(
            f"{source}: {len(data)} bytes is too short for a LiteRT model", hint="check that the file is complete"
        )
    if data[4:8] != FILE_IDENTIFIER:
        raise ModelFormatError(
            f"{source}: not a LiteRT model (file identifier {data[4:8]!r}, expected {FILE_IDENTIFIER!r})",
            hint="opbridge reads .tflite flatbuffers; convert other formats with their frontend",
        )


def _read_tables(reader: _Reader) -> _Tables:
    """The model table, subgraph 0 and the lengths of the buffer and operator code lists."""
    model = reader.read("the model table", lambda: tflite.Model.GetRootAsModel(reader.data, 0))
    subgraph_count = reader.length("the subgraph list", model.SubgraphsLength)
    if subgraph_count < 1:
        raise ModelFormatError(f"{reader.source}: the model has no subgraph", hint="the file is damaged")
    subgraph = reader.read("subgraph 0", lambda: model.Subgraphs(0))
    buffer_count = reader.length("the buffer list", model.BuffersLength)
    operator_code_count = reader.length("the operator code list", model.OperatorCodesLength)
    return _Tables(model, subgraph, buffer_count, operator_code_count)


def _resolve_operators(
    reader: _Reader, context: RegistryContext, tables: _Tables, skipped: frozenset[int] = frozenset()
) -> list[_Resolved]:
    """Every operator of subgraph 0 with its key and parser (but the `skipped` ones: the resource
    variables' operators); all unsupported ones are refused together."""
    operators = []
    unsupported: list[UnsupportedNode] = []
    for index in range(reader.length("the operator list", tables.subgraph.OperatorsLength)):
        if index in skipped:
            continue
        resolved = _resolve_operator(reader, context, tables, index)
        if isinstance(resolved, UnsupportedNode):
            unsupported.append(resolved)
        else:
            operators.append(resolved)
    if unsupported:
        raise unsupported_operators_error(
            reader.source,
            unsupported,
            hint="for a custom operator, write a plugin: `opbridge new-op KEY --format litert`, with the key shown, "
            "makes one with its four parts (an OperatorDefinition with schema and reference in operators, a parser "
            "in litert_parsers, an AotOperator class in aot_operator_classes, its C kernel); then `opbridge convert "
            "--plugin my_pkg.plugin` (docs/custom_ops.md). For a missing builtin operator, file an issue",
        )
    return operators


def _resolve_operator(
    reader: _Reader, context: RegistryContext, tables: _Tables, index: int
) -> _Resolved | UnsupportedNode:
    """Operator `index` resolved to its key, or why it is not supported."""
    operator = reader.read(f"operator {index}", lambda: tables.subgraph.Operators(index))
    code_index = reader.read(f"operator {index}'s code index", operator.OpcodeIndex)
    if not 0 <= code_index < tables.operator_code_count:
        raise ModelFormatError(
            f"{reader.source}: operator {index} uses operator code {code_index}, "
            f"but the model has {tables.operator_code_count}",
            hint="the file is damaged",
        )
    operator_code = reader.read(f"operator code {code_index}", lambda: tables.model.OperatorCodes(code_index))
    builtin_code = reader.read("a builtin code", lambda: builtin_operator_code(operator_code))
    version = reader.read("an operator version", operator_code.Version)
    if builtin_code == CUSTOM_OPERATOR_CODE:
        custom_code = (reader.read("a custom code", operator_code.CustomCode) or b"").decode(errors="replace")
        return _resolve_custom(reader, context, tables.model, operator, index, version, custom_code)
    op_name = BUILTIN_OPERATOR_NAMES.get(builtin_code, f"builtin operator {builtin_code}")
    definition = context.operators.by_litert_code(builtin_code)
    if definition is None or definition.op_type not in context.litert_parsers:
        return UnsupportedNode(op_name, f"node {index}")
    if version not in definition.litert_versions:
        return UnsupportedNode(
            f"{op_name} version {version}", f"node {index}", f"supported versions: {sorted(definition.litert_versions)}"
        )
    return _Resolved(LiteRTNode(index, definition.op_type, version, operator, tables.model), op_name)


def _resolve_custom(
    reader: _Reader,
    context: RegistryContext,
    model: Any,
    operator: Any,
    index: int,
    version: int,
    custom_code: str,
) -> _Resolved | UnsupportedNode:
    """A CUSTOM operator resolved to the key of its custom code (with its options), or why it is not supported."""
    try:
        key = custom_code_to_op_key(custom_code)
    except UnsupportedOperatorError as error:
        return UnsupportedNode(f"custom operator {custom_code!r}", f"node {index}", f"{error.message}; {error.hint}")
    builtin = context.operators.get(key)
    if builtin is not None and builtin.litert_builtin_code is not None:
        # A customCode such as "relu" must not be compiled as the builtin RELU.
        return UnsupportedNode(
            f"custom operator {custom_code!r}",
            f"node {index}",
            f"its key {key} is a builtin operator's key; rename the custom operator when exporting the model",
        )
    if key not in context.litert_parsers:
        return UnsupportedNode(f"custom operator {custom_code!r} (key {key})", f"node {index}", "no parser registered")
    option_count = reader.length(f"node {index}'s custom options", operator.CustomOptionsLength, 1)
    custom_options = b""
    if option_count:
        custom_options = reader.read(
            f"node {index}'s custom options", lambda: operator.CustomOptionsAsNumpy().tobytes()
        )
    return _Resolved(LiteRTNode(index, key, version, operator, model, custom_code, custom_options), custom_code)


def _tensor_indices(
    reader: _Reader, what: str, read: Callable[[], Any], tensor_count: int, *, allow_omitted: bool = False
) -> list[int]:
    """A vector of tensor indices, each checked against the subgraph's tensors; -1 (an omitted
    optional input) is kept where `allow_omitted`, refused elsewhere."""
    values = reader.read(what, read)
    if isinstance(values, int):  # the tflite accessors return 0 for an empty vector
        values = []
    indices: list[int] = []
    for value in np.atleast_1d(values).tolist():
        if (value == -1 and allow_omitted) or 0 <= value < tensor_count:
            indices.append(int(value))
        else:
            raise ModelFormatError(
                f"{reader.source}: {what} names tensor {value}, but subgraph 0 has {tensor_count} tensors",
                hint="the file is damaged",
            )
    return indices


def _build_node(
    reader: _Reader, context: RegistryContext, resolved: _Resolved, tensors: list[Tensor], position: int
) -> Node:
    """The graph node of one resolved operator: its tensors and the options its parser reads."""
    view, op_name = resolved.view, resolved.op_name
    index, operator = view.index, view.operator
    inputs = _tensor_indices(
        reader, f"operator {index}'s inputs", operator.InputsAsNumpy, len(tensors), allow_omitted=True
    )
    outputs = _tensor_indices(reader, f"operator {index}'s outputs", operator.OutputsAsNumpy, len(tensors))
    if not outputs:
        raise ModelFormatError(
            f"{reader.source}: operator {index} ({op_name}) has no output", hint="the file is damaged"
        )
    attributes = _parse_attributes(reader, context, view, op_name)
    return Node(
        index=position,
        name=tensors[outputs[0]].name,
        op_type=view.op_key,
        inputs=[None if i == -1 else i for i in inputs],
        outputs=outputs,
        attributes=attributes,
    )


def _build_graph(
    reader: _Reader, subgraph: Any, tensors: list[Tensor], nodes: list[Node], aliases: dict[int, int] | None = None
) -> Graph:
    """The graph of subgraph 0: its inputs, outputs and name around the nodes read."""
    inputs = _tensor_indices(reader, "the subgraph inputs", subgraph.InputsAsNumpy, len(tensors))
    outputs = _tensor_indices(reader, "the subgraph outputs", subgraph.OutputsAsNumpy, len(tensors))
    outputs = [(aliases or {}).get(i, i) for i in outputs]
    subgraph_name = reader.read("the subgraph name", subgraph.Name)
    try:
        return Graph(
            name=(subgraph_name or b"main").decode(errors="replace"),
            tensors=tensors,
            nodes=nodes,
            inputs=inputs,
            outputs=outputs,
        )
    except ValueError as error:
        raise ModelFormatError(f"{reader.source}: {error}", hint="the operators are not in execution order") from None


def _parse_attributes(reader: _Reader, context: RegistryContext, view: LiteRTNode, op_name: str) -> Any:
    """The node's typed attributes, read from LiteRT's options by its registered parser, checked against
    air_options."""
    parser = context.litert_parsers[view.op_key]
    if view.custom_code is None:
        try:
            attributes = reader.read(f"node {view.index} ({op_name}) options", lambda: parser(view))
        except OpbridgeError as error:
            # A built-in parser sees only the options: name the node it was reading.
            error.add_context(view.describe())
            raise
    else:
        try:
            attributes = parser(view)
        except OpbridgeError:
            raise
        except Exception as error:
            raise ModelFormatError(
                f"{reader.source}: {view.describe()}: its parser rejected the node: {type(error).__name__}: {error}",
                hint=f"check the model's custom options; the parser is "
                f"{getattr(parser, '__module__', '?')}.{getattr(parser, '__qualname__', parser)}",
            ) from error
    attributes_class = context.air_options.get(view.op_key)
    if attributes_class is not None and attributes is not None and not isinstance(attributes, attributes_class):
        raise OperatorPluginError(
            f"{view.describe()}: the parser returned {type(attributes).__name__}, "
            f"but air_options registers {attributes_class.__name__} for {view.op_key}",
            hint="return the attribute class registered in air_options from the parser, or register the one it returns",
        )
    return attributes


def _read_tensor(
    reader: _Reader, model: Any, subgraph: Any, index: int, buffer_count: int, resource: bool = False
) -> Tensor:
    """Tensor `index` of `subgraph`; with `resource`, a RESOURCE handle becomes a placeholder (the
    resource-variable step resolves what it names, and the graph drops it)."""
    source = reader.source
    tensor = reader.read(f"tensor {index}", lambda: subgraph.Tensors(index))
    # A tensor without a name field is valid; name it by its index.
    name = (reader.read(f"tensor {index}'s name", tensor.Name) or f"tensor_{index}".encode()).decode(errors="replace")
    type_code = reader.read(f"tensor {index}'s type", tensor.Type)
    if resource and type_code == tflite.TensorType.RESOURCE:
        return Tensor(index=index, name=name, dtype=DType.INT32, shape=())
    dtype = _TENSOR_TYPES.get(type_code)
    if dtype is None:
        raise UnsupportedTensorError(
            f'{source}: tensor {index} "{name}" has type {_TENSOR_TYPE_NAMES.get(type_code, type_code)}, '
            f"which opbridge does not support (supported: {sorted(t.value for t in _TENSOR_TYPES.values())})",
            hint="quantize the model to int8, or keep such tensors out of the part converted",
        )
    reader.length(f"tensor {index}'s shape", tensor.ShapeLength)
    shape = tuple(int(d) for d in np.atleast_1d(reader.read(f"tensor {index}'s shape", tensor.ShapeAsNumpy)))
    if tensor.ShapeLength() == 0:
        shape = ()
    # A shape signature with -1 (a batch left open at export) is fine when the
    # shape itself is fixed: TFLite Micro runs such models with `shape` too.
    if any(d < 0 for d in shape):
        raise UnsupportedTensorError(
            f'{source}: tensor {index} "{name}" has a dynamic shape {list(shape)}',
            hint="opbridge plans memory ahead of time; export the model with a fixed batch size and input shape",
        )
    quantization = _read_quantization(reader, tensor, index, name, shape)
    buffer_index = reader.read(f"tensor {index}'s buffer", tensor.Buffer)
    if not 0 <= buffer_index < buffer_count:
        raise ModelFormatError(
            f'{source}: tensor {index} "{name}" uses buffer {buffer_index}, but the model has {buffer_count}',
            hint="the file is damaged",
        )
    data = (
        None
        if buffer_index == 0
        else _read_buffer(reader, model, buffer_index, f'tensor {index} "{name}"', dtype, shape)
    )
    is_variable = bool(reader.read(f"tensor {index}'s is_variable", tensor.IsVariable))
    return Tensor(
        index=index, name=name, dtype=dtype, shape=shape, quantization=quantization, data=data, is_variable=is_variable
    )


def _read_buffer(
    reader: _Reader, model: Any, buffer_index: int, tensor: str, dtype: DType, shape: tuple[int, ...]
) -> np.ndarray | None:
    """A constant tensor's data from its buffer (None for an empty buffer: the tensor is computed)."""
    buffer = reader.read(f"buffer {buffer_index}", lambda: model.Buffers(buffer_index))
    offset = reader.read(f"buffer {buffer_index}'s offset", buffer.Offset)
    if offset > 1:
        # Kept after the FlatBuffer (how LiteRT writes models over 2 GiB, and models whose buffers it
        # places outside): `size` bytes from `offset`, counted from the file's start; the verifier
        # checked that they lie in the file.
        byte_count = reader.read(f"buffer {buffer_index}'s size", buffer.Size)
        raw = np.frombuffer(reader.data, dtype=np.uint8, count=byte_count, offset=offset) if byte_count else None
    else:
        byte_count = reader.length(f"buffer {buffer_index}'s data", buffer.DataLength, element_bytes=1)
        raw = reader.read(f"buffer {buffer_index}'s data", buffer.DataAsNumpy) if byte_count else None
    if raw is None:
        return None
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if byte_count != expected:
        raise ModelFormatError(
            f"{reader.source}: {tensor} {dtype.value}{list(shape)} needs {expected} bytes of data, "
            f"its buffer holds {byte_count}",
            hint="the file is damaged",
        )
    data = np.frombuffer(raw.tobytes(), dtype=dtype.numpy.newbyteorder("<")).astype(dtype.numpy)
    return data.reshape(shape)


def _read_quantization(
    reader: _Reader, tensor: Any, index: int, name: str, shape: tuple[int, ...]
) -> Quantization | None:
    parameters = reader.read(f"tensor {index}'s quantization", tensor.Quantization)
    if parameters is None:
        return None
    scale_count = reader.length(f"tensor {index}'s scales", parameters.ScaleLength)
    if scale_count == 0:
        return None
    zero_point_count = reader.length(f"tensor {index}'s zero points", parameters.ZeroPointLength, element_bytes=8)
    scales = tuple(float(s) for s in np.atleast_1d(reader.read("scales", parameters.ScaleAsNumpy)))
    # LiteRT and TFLite Micro refuse scales without as many zero points (none at all included).
    zero_points = ()
    if zero_point_count:
        zero_points = tuple(int(z) for z in np.atleast_1d(reader.read("zero points", parameters.ZeroPointAsNumpy)))
    if len(zero_points) != len(scales) or any(not np.isfinite(s) or s <= 0 for s in scales):
        raise ModelFormatError(
            f'{reader.source}: tensor {index} "{name}" has invalid quantization (scales {list(scales)[:4]}, '
            f"zero points {list(zero_points)[:4]})",
            hint="scales must be positive and match the zero points one to one",
        )
    axis = None
    if scale_count > 1:
        axis = int(reader.read(f"tensor {index}'s quantized dimension", parameters.QuantizedDimension))
        # Per-channel: one scale per index of the quantized dimension, as LiteRT checks (TFLite Micro does not).
        if not 0 <= axis < len(shape) or shape[axis] != scale_count:
            raise ModelFormatError(
                f'{reader.source}: tensor {index} "{name}" {list(shape)} has {scale_count} scales along its '
                f"quantized dimension {axis}, which should be one of its dimensions, of size {scale_count}",
                hint="the file is damaged: re-export the model, or check that the file was copied completely",
            )
    return Quantization(scales=scales, zero_points=zero_points, axis=axis)


def load_litert_model(path: pathlib.Path | str, context: RegistryContext) -> Graph:
    """Reads a .tflite file; see read_litert_model."""
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ModelFormatError(f"cannot read model {path}: {error.strerror}", hint="check the path") from None
    return read_litert_model(data, context, source=str(path))
