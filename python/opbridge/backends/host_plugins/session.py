# SPDX-License-Identifier: Apache-2.0
"""CustomOpSession: runs an ONNX model of custom-domain nodes through a native plugin library.

The model is read by the ONNX frontend's reader (read_model_proto, read_node:
the `onnx` package) into an opbridge Graph whose nodes stay the model's
custom-domain nodes, with their attributes as the plugin receives them; no
converter, schema or pass is applied. Each node gets a kernel from the plugin
(ONNX Runtime custom-op ABI by default, or opbridge's own ABI) and the
NativeExecutor runs them. Nothing of ONNX Runtime is imported or loaded.
"""

import dataclasses
import os
import threading
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from opbridge.backends.host_plugins.dtypes import ONNX_NUMBERS, dtype_of_number, name_of_number
from opbridge.backends.host_plugins.executor import NativeExecutor
from opbridge.backends.host_plugins.isolated import IsolatedExecutor
from opbridge.backends.host_plugins.limits import check_model_size
from opbridge.backends.host_plugins.plugins import Floats, Ints, NativePlugin, NodeKernel, OrtCustomOpLibrary, Strings
from opbridge.errors import InvalidInputError, ModelFormatError, UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.onnx.conversion import OnnxNode
from opbridge.frontends.onnx.importer import node_name, read_model_proto, read_node, tensor_type, text
from opbridge.ir import DType, Graph, Node, Tensor

Array = npt.NDArray[Any]
Abi = Literal["ort", "opbridge"]
Library = NativePlugin | OrtCustomOpLibrary

# The attribute kinds plugins receive, by AttributeProto.AttributeType number (onnx.proto):
# scalars by the field that holds their value, lists by the class that keeps their kind when empty.
_SCALAR_FIELDS = {1: "f", 2: "i", 3: "s"}  # FLOAT, INT, STRING
_LIST_KINDS: dict[int, type[Floats | Ints | Strings]] = {6: Floats, 7: Ints, 8: Strings}  # FLOATS, INTS, STRINGS
_UNDEFINED = 0


def _release(kernels: list[NodeKernel], library: Library) -> None:
    """Kernels first, then the library (which unloads once nothing uses it)."""
    for kernel in kernels:
        kernel.release()
    library.release()


class CustomOpSession:
    """An ONNX model whose nodes all come from one native plugin library.

    `abi="ort"` hosts a library written for ONNX Runtime's custom-op API,
    `abi="opbridge"` one written against cc/plugin/opbridge_plugin.h. Use as
    a context manager or call close(); an abandoned session is released by a
    finalizer. Runs are serialized; inputs are copied before a plugin sees
    them; outputs are new arrays owned by the caller.

    `isolate=True` loads the library and runs its kernels in a child process
    (isolated.py): a crash in plugin code raises PluginKernelError naming the
    node and op (PluginLoadError while loading) instead of ending the
    caller's process, at the cost of copying inputs and outputs across a pipe.
    """

    def __init__(
        self,
        plugin: str | os.PathLike[str],
        model: bytes | bytearray | memoryview,
        *,
        abi: Abi = "ort",
        isolate: bool = False,
    ) -> None:
        if not isinstance(model, bytes | bytearray | memoryview):
            raise TypeError(f"model must be the bytes of an ONNX file, got {type(model).__name__}")
        check_model_size(memoryview(model).nbytes)  # before anything is copied or parsed
        proto, opsets = read_model_proto(bytes(model))
        if abi not in ("ort", "opbridge"):
            raise ValueError(f'abi must be "ort" or "opbridge", got {abi!r}')
        self._lock = threading.Lock()
        self._closed = False
        if isolate:
            isolated = IsolatedExecutor(plugin, bytes(model), abi)
            self._executor: NativeExecutor | IsolatedExecutor = isolated
            self._finalizer = weakref.finalize(self, isolated.close)
            return
        library: Library = OrtCustomOpLibrary.load(plugin) if abi == "ort" else NativePlugin.load(plugin)
        builder = _GraphBuilder(library, opsets)
        try:
            graph = builder.build(proto)
        except BaseException:
            _release(list(builder.kernels.values()), library)
            raise
        kernels = builder.kernels
        self._executor = NativeExecutor(graph, kernels, unranked_inputs=builder.unranked)
        self._finalizer = weakref.finalize(self, _release, list(kernels.values()), library)

    @property
    def graph(self) -> Graph:
        return self._executor.graph

    @property
    def native_executor(self) -> NativeExecutor:
        """The executor of an in-process session (its kernels by node index)."""
        if not isinstance(self._executor, NativeExecutor):
            raise TypeError("an isolated session runs its kernels in a child process")
        return self._executor

    @property
    def input_names(self) -> list[str]:
        return [tensor.name for tensor in self.graph.input_tensors()]

    @property
    def output_names(self) -> list[str]:
        return [tensor.name for tensor in self.graph.output_tensors()]

    def run(self, inputs: Mapping[str, npt.ArrayLike] | Sequence[npt.ArrayLike]) -> list[Array]:
        """Runs the model on one array per graph input (by name or in order); returns the outputs."""
        arrays = self._arrange(inputs)
        with self._lock:
            if self._closed:
                raise RuntimeError("the session is closed")
            return self._executor.run(arrays)

    def close(self) -> None:
        """Releases the kernels, then the library. Idempotent."""
        with self._lock:
            self._closed = True
            self._finalizer()

    def __enter__(self) -> "CustomOpSession":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _arrange(self, inputs: Mapping[str, npt.ArrayLike] | Sequence[npt.ArrayLike]) -> list[Array]:
        names = self.input_names
        if isinstance(inputs, Mapping):
            unknown = sorted(set(inputs) - set(names))
            missing = [name for name in names if name not in inputs]
            if unknown or missing:
                raise InvalidInputError(
                    f"inputs {unknown} are not graph inputs; {missing} are missing",
                    hint=f"the graph's inputs are {names}",
                )
            values = [inputs[name] for name in names]
        else:
            values = list(inputs)
        if len(values) != len(names):
            raise InvalidInputError(f"the model has {len(names)} input(s), got {len(values)}", hint=f"pass {names}")
        # No copy of an array: the executor checks dtype, shape and limits before anything is copied.
        return [np.asarray(value) for value in values]


def _check_hostable(proto: Any) -> None:
    """The model is one graph of nodes, without local functions or initializers, its text UTF-8."""
    graph = proto.graph
    if proto.functions:
        raise UnsupportedOperatorError(
            f"the model defines local functions {[text(function.name) for function in proto.functions]}",
            hint="inline them before hosting the model",
        )
    initializers = [text(tensor.name) for tensor in graph.initializer]
    initializers += ["<sparse initializer>"] * len(graph.sparse_initializer)
    if initializers:
        raise UnsupportedTensorError(
            f"the graph has initializers {initializers}", hint="pass constant tensors as graph inputs"
        )
    if not graph.node:
        raise ModelFormatError("the graph has no nodes", hint="the model is empty or damaged")
    _check_utf8(proto)


def _check_utf8(proto: Any) -> None:
    """Names and string attributes are UTF-8. The onnx package hands back bytes for a damaged one:
    it is refused, not passed to the plugin with replaced characters."""
    graph = proto.graph
    texts = [("the graph's name", graph.name)]
    texts += [(f"opset_import {i}'s domain", entry.domain) for i, entry in enumerate(proto.opset_import)]
    for kind, infos in (("input", graph.input), ("output", graph.output), ("value_info", graph.value_info)):
        texts += [(f"graph {kind} {i}'s name", info.name) for i, info in enumerate(infos)]
    for position, node in enumerate(graph.node):
        where = f"node {position}'s"
        texts += [(f"{where} name", node.name), (f"{where} op_type", node.op_type), (f"{where} domain", node.domain)]
        texts += [(f"{where} input or output name", name) for name in [*node.input, *node.output]]
        for attribute in node.attribute:
            texts += [(f"{where} attribute name", attribute.name), (f"{where} attribute value", attribute.s)]
            texts += [(f"{where} attribute value", value) for value in attribute.strings]
    for what, value in texts:
        if isinstance(value, bytes):
            try:
                value.decode("utf-8")
            except UnicodeDecodeError:
                raise ModelFormatError(
                    f"{what} is not valid UTF-8", hint="the model is damaged; re-export it"
                ) from None


def _value_type(info: Any) -> tuple[int, tuple[int, ...] | None]:
    """A value's element type (0: not given) and shape (None: not given); a value that is not a
    dense tensor is refused."""
    described = tensor_type(info)
    if described is not None:
        return described
    if info.type.WhichOneof("value") is None:  # no type given
        return 0, None
    raise UnsupportedTensorError(
        f'value "{text(info.name)}" is not a dense tensor',
        hint="native plugin graphs take and return dense tensors only",
    )


def _plugin_node(proto: Any, position: int) -> tuple[OnnxNode, str]:
    """A node with the attributes a plugin receives (names decoded, lists typed so that empty
    ones keep their kind), and its label for messages."""
    label = f'node "{node_name(proto, position)}" ({text(proto.domain) or "ai.onnx"}::{text(proto.op_type)})'
    for attribute in proto.attribute:  # before read_node, which reads any kind
        _check_attribute(attribute, f'{label} attribute "{text(attribute.name)}"')
    node = read_node(proto, position)
    attributes: dict[str, Any] = {}
    for attribute in proto.attribute:
        value = node.attributes[attribute.name]
        if attribute.type in _LIST_KINDS:
            value = _LIST_KINDS[attribute.type](text(item) for item in value)  # text(): strings decoded
        attributes[text(attribute.name)] = value
    return dataclasses.replace(node, attributes=attributes), label


def _check_attribute(attribute: Any, where: str) -> None:
    """A literal int, float or string, or a list of one of those."""
    import onnx

    if attribute.ref_attr_name:
        raise UnsupportedTensorError(
            f"{where} refers to a function attribute",
            hint="only nodes of the main graph with literal attributes are supported",
        )
    kind = attribute.type
    if kind in _LIST_KINDS or (kind in _SCALAR_FIELDS and attribute.HasField(_SCALAR_FIELDS[kind])):
        return
    kind_name = onnx.AttributeProto.AttributeType.Name(kind)
    if kind == _UNDEFINED or kind in _SCALAR_FIELDS:
        raise ModelFormatError(
            f"{where} has type {kind_name} but no value of that type",
            hint="the model is damaged or was written by an exporter that omits attribute types",
        )
    raise UnsupportedTensorError(
        f"{where} is of type {kind_name}",
        hint="native plugins receive int, float, string and list-of-those attributes",
    )


def _value_dtype(number: int, what: str) -> DType:
    dtype = dtype_of_number(number)
    if dtype is None:
        raise UnsupportedTensorError(
            f"{what} has element type {name_of_number(number)}",
            hint="native plugins take float16, bfloat16, float32, float64, integer and bool tensors (string "
            "tensors are not served: docs/native_plugins.md)",
        )
    return dtype


def _kernel(
    library: Library, node: OnnxNode, opset: int, input_dtypes: list[DType]
) -> tuple[NodeKernel, list[DType | None]]:
    """The node's kernel and the dtypes of its outputs as the plugin declares them (None: not fixed)."""
    if isinstance(library, OrtCustomOpLibrary):
        kernel = library.kernel(node.domain, node.op_type, opset, input_dtypes, node.attributes, node.name)
        types = tuple(ONNX_NUMBERS[dtype] for dtype in input_dtypes)
        op = next(o for o in library.ops if (o.domain, o.name, o.input_types) == (node.domain, node.op_type, types))
        return kernel, list(op.output_dtypes)
    kernel = library.kernel(node.domain, node.op_type, opset, node.attributes, node.name)
    native_op = library.find(node.domain, node.op_type, opset)
    assert native_op is not None  # kernel() checked
    output_dtypes = [
        next(iter(allowed))
        if len(allowed) == 1
        else (input_dtypes[0] if input_dtypes and input_dtypes[0] in allowed else None)
        for allowed in native_op.output_dtypes
    ]
    return kernel, output_dtypes


class _GraphBuilder:
    """Builds the Graph of a custom-op model, node by node. Kernels go into `kernels` (by node
    index) as they are made, so that the caller can release them if a later node fails; graph
    inputs of open rank go into `unranked`."""

    def __init__(self, library: Library, opsets: dict[str, int]) -> None:
        self.library = library
        self.opsets = opsets
        self.tensors: list[Tensor] = []
        self.by_name: dict[str, int] = {}
        self.kernels: dict[int, NodeKernel] = {}
        self.unranked: list[int] = []

    def build(self, proto: Any) -> Graph:
        _check_hostable(proto)
        graph = proto.graph
        inputs = [self._add_input(info) for info in graph.input]
        declared = {text(info.name): _value_type(info) for info in [*graph.output, *graph.value_info]}
        nodes = [self._add_node(node, position, declared) for position, node in enumerate(graph.node)]
        outputs = [self._output(info, inputs) for info in graph.output]
        return Graph(graph.name or "model", self.tensors, nodes, inputs, outputs)

    def _add_tensor(self, name: str, dtype: DType, shape: tuple[int, ...], what: str) -> int:
        if not name or name in self.by_name:
            raise ModelFormatError(f'{what} "{name}" is unnamed or defined twice', hint="each value needs one producer")
        self.by_name[name] = len(self.tensors)
        self.tensors.append(Tensor(len(self.tensors), name, dtype, shape))
        return len(self.tensors) - 1

    def _add_input(self, info: Any) -> int:
        name = text(info.name)
        number, shape = _value_type(info)
        index = self._add_tensor(name, _value_dtype(number, f'graph input "{name}"'), shape or (), "graph input")
        if shape is None:
            self.unranked.append(index)
        return index

    def _add_node(self, proto: Any, position: int, declared: dict[str, tuple[int, tuple[int, ...] | None]]) -> Node:
        node, label = _plugin_node(proto, position)
        if not node.domain:
            raise UnsupportedOperatorError(
                f"{label} is a standard ONNX operator",
                hint="a CustomOpSession runs custom-domain nodes only, each from the plugin library",
            )
        if node.domain not in self.opsets:
            raise UnsupportedOperatorError(
                f'{label}: the model does not import domain "{node.domain}"',
                hint=f'add opset_import {{domain: "{node.domain}", version: N}} to the model',
            )
        missing = [name for name in node.inputs if name not in self.by_name]
        if missing:
            raise ModelFormatError(
                f"{label} reads {missing}, which no graph input or earlier node provides",
                hint="omitted optional inputs are not supported; nodes must be in topological order",
            )
        inputs = [self.by_name[name] for name in node.inputs]
        kernel, output_dtypes = _kernel(
            self.library, node, self.opsets[node.domain], [self.tensors[i].dtype for i in inputs]
        )
        self.kernels[position] = kernel
        if len(node.outputs) != len(output_dtypes):
            raise ModelFormatError(
                f"{label} has {len(node.outputs)} outputs; the plugin's op has {len(output_dtypes)}",
                hint="the model and the plugin disagree on the op's signature",
            )
        outputs = [
            self._add_output_value(label, name, dtype, declared.get(name))
            for name, dtype in zip(node.outputs, output_dtypes, strict=True)
        ]
        return Node(position, node.name, f"{node.domain}::{node.op_type}", inputs, outputs, node.attributes)

    def _add_output_value(
        self, label: str, name: str, dtype: DType | None, declared: tuple[int, tuple[int, ...] | None] | None
    ) -> int:
        """A node's output: its dtype from the plugin, else from the model; a declared dtype must agree."""
        number, shape = declared if declared is not None else (0, None)
        declared_dtype = dtype_of_number(number) if number else None
        if dtype is None:
            dtype = declared_dtype
        if dtype is None:
            raise UnsupportedTensorError(
                f'{label}: the type of output "{name}" cannot be told', hint="declare it in the graph's value_info"
            )
        if declared_dtype is not None and declared_dtype != dtype:
            raise ModelFormatError(
                f'{label}: output "{name}" is declared {declared_dtype.value}, the plugin produces {dtype.value}',
                hint="fix the model's declared output type",
            )
        # Shapes of values are known only at run time; a declared shape is kept for reference.
        return self._add_tensor(name, dtype, shape or (), "value")

    def _output(self, info: Any, inputs: list[int]) -> int:
        name = text(info.name)
        if name not in self.by_name or self.by_name[name] in inputs:
            raise ModelFormatError(
                f'graph output "{name}" is not produced by any node',
                hint="every graph output must be a node's output, distinct from the graph inputs",
            )
        return self.by_name[name]
