"""CustomOpSession: runs an ONNX model of custom-domain nodes through a native plugin library.

The model is read by opbridge's own protobuf reader (no onnx package) into an
opbridge Graph; each node gets a kernel from the plugin (ONNX Runtime
custom-op ABI by default, or opbridge's own ABI) and the NativeExecutor runs
them. Nothing of ONNX Runtime is imported or loaded.
"""

import os
import threading
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from opbridge.backends.host_plugins.dtypes import ONNX_NUMBERS, dtype_of_number, name_of_number
from opbridge.backends.host_plugins.executor import NativeExecutor
from opbridge.backends.host_plugins.limits import check_model_size
from opbridge.backends.host_plugins.plugins import NativePlugin, NodeKernel, OrtCustomOpLibrary
from opbridge.errors import InvalidInputError, ModelFormatError, UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.onnx.protobuf import ModelProto, ValueInfo, read_model
from opbridge.ir import DType, Graph, Node, Tensor

Array = npt.NDArray[Any]
Abi = Literal["ort", "opbridge"]


def _release(kernels: list[NodeKernel], library: NativePlugin | OrtCustomOpLibrary) -> None:
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
    """

    def __init__(
        self, plugin: str | os.PathLike[str], model: bytes | bytearray | memoryview, *, abi: Abi = "ort"
    ) -> None:
        if not isinstance(model, bytes | bytearray | memoryview):
            raise TypeError(f"model must be the bytes of an ONNX file, got {type(model).__name__}")
        check_model_size(memoryview(model).nbytes)  # before anything is copied or parsed
        proto = read_model(bytes(model))
        if abi == "ort":
            library: NativePlugin | OrtCustomOpLibrary = OrtCustomOpLibrary.load(plugin)
        elif abi == "opbridge":
            library = NativePlugin.load(plugin)
        else:
            raise ValueError(f'abi must be "ort" or "opbridge", got {abi!r}')
        kernels: dict[int, NodeKernel] = {}
        unranked: list[int] = []
        try:
            graph = _build_graph(proto, library, kernels, unranked)
        except BaseException:
            _release(list(kernels.values()), library)
            raise
        self._executor = NativeExecutor(graph, kernels, unranked_inputs=unranked)
        self._lock = threading.Lock()
        self._closed = False
        self._finalizer = weakref.finalize(self, _release, list(kernels.values()), library)

    @property
    def graph(self) -> Graph:
        return self._executor.graph

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


def _value_dtype(info: ValueInfo, what: str) -> DType:
    dtype = dtype_of_number(info.elem_type)
    if dtype is None:
        raise UnsupportedTensorError(
            f'{what} "{info.name}" has element type {name_of_number(info.elem_type)}',
            hint="native plugins take float16, bfloat16, float32, float64 and integer tensors",
        )
    return dtype


def _build_graph(
    proto: ModelProto,
    library: NativePlugin | OrtCustomOpLibrary,
    kernels: dict[int, NodeKernel],
    unranked: list[int],
) -> Graph:
    """The opbridge Graph of `proto`; puts a kernel per node into `kernels` and inputs of open rank into `unranked`."""
    graph_proto = proto.graph
    assert graph_proto is not None  # read_model guarantees it
    if proto.function_names:
        raise UnsupportedOperatorError(
            f"the model defines local functions {proto.function_names}",
            hint="inline them before hosting the model",
        )
    if graph_proto.initializer_names:
        raise UnsupportedTensorError(
            f"the graph has initializers {graph_proto.initializer_names}",
            hint="pass constant tensors as graph inputs",
        )
    if not graph_proto.nodes:
        raise ModelFormatError("the graph has no nodes", hint="the model is empty or damaged")
    tensors: list[Tensor] = []
    by_name: dict[str, int] = {}

    def add(name: str, dtype: DType, shape: tuple[int, ...], what: str) -> int:
        if not name or name in by_name:
            raise ModelFormatError(f'{what} "{name}" is unnamed or defined twice', hint="each value needs one producer")
        by_name[name] = len(tensors)
        tensors.append(Tensor(len(tensors), name, dtype, shape))
        return len(tensors) - 1

    inputs = []
    for info in graph_proto.inputs:
        shape = tuple(dim if isinstance(dim, int) else -1 for dim in info.shape or ())
        index = add(info.name, _value_dtype(info, "graph input"), shape, "graph input")
        inputs.append(index)
        if info.shape is None:
            unranked.append(index)
    declared = {info.name: info for info in graph_proto.outputs + graph_proto.value_infos}

    nodes = []
    for position, node in enumerate(graph_proto.nodes):
        node_name = node.name or f"{node.op_type}_{position}"
        label = f'node "{node_name}" ({node.domain or "ai.onnx"}::{node.op_type})'
        if not node.domain:
            raise UnsupportedOperatorError(
                f"{label} is a standard ONNX operator",
                hint="a CustomOpSession runs custom-domain nodes only, each from the plugin library",
            )
        if node.domain not in proto.opset_imports:
            raise UnsupportedOperatorError(
                f'{label}: the model does not import domain "{node.domain}"',
                hint=f'add opset_import {{domain: "{node.domain}", version: N}} to the model',
            )
        opset = proto.opset_imports[node.domain]
        missing = [name for name in node.inputs if name not in by_name]
        if missing:
            raise ModelFormatError(
                f"{label} reads {missing}, which no graph input or earlier node provides",
                hint="omitted optional inputs are not supported; nodes must be in topological order",
            )
        input_indices = [by_name[name] for name in node.inputs]
        input_dtypes = [tensors[i].dtype for i in input_indices]
        if isinstance(library, OrtCustomOpLibrary):
            kernel = library.kernel(node.domain, node.op_type, opset, input_dtypes, node.attributes, node_name)
            types = tuple(ONNX_NUMBERS[dtype] for dtype in input_dtypes)
            op = next(o for o in library.ops if (o.domain, o.name, o.input_types) == (node.domain, node.op_type, types))
            output_dtypes: list[DType | None] = list(op.output_dtypes)
        else:
            kernel = library.kernel(node.domain, node.op_type, opset, node.attributes, node_name)
            native_op = library.find(node.domain, node.op_type, opset)
            assert native_op is not None  # kernel() checked
            output_dtypes = [
                next(iter(allowed))
                if len(allowed) == 1
                else (input_dtypes[0] if input_dtypes and input_dtypes[0] in allowed else None)
                for allowed in native_op.output_dtypes
            ]
        kernels[position] = kernel
        if len(node.outputs) != len(output_dtypes):
            raise ModelFormatError(
                f"{label} has {len(node.outputs)} outputs; the plugin's op has {len(output_dtypes)}",
                hint="the model and the plugin disagree on the op's signature",
            )
        output_indices = []
        for name, dtype in zip(node.outputs, output_dtypes, strict=True):
            info = declared.get(name)
            declared_dtype = dtype_of_number(info.elem_type) if info is not None and info.elem_type else None
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
            shape = tuple(dim if isinstance(dim, int) else -1 for dim in info.shape or ()) if info else ()
            output_indices.append(add(name, dtype, shape, "value"))
        nodes.append(
            Node(position, node_name, f"{node.domain}::{node.op_type}", input_indices, output_indices, node.attributes)
        )

    outputs = []
    for info in graph_proto.outputs:
        if info.name not in by_name or by_name[info.name] in inputs:
            raise ModelFormatError(
                f'graph output "{info.name}" is not produced by any node',
                hint="every graph output must be a node's output, distinct from the graph inputs",
            )
        outputs.append(by_name[info.name])
    return Graph(graph_proto.name or "model", tensors, nodes, inputs, outputs)
