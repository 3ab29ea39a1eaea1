# SPDX-License-Identifier: Apache-2.0
"""Native plugin libraries, loaded by explicit path, and their per-node kernels.

Two ABIs share one kernel interface (`NodeKernel.compute(arrays)`):
- `NativePlugin`: opbridge's own stable C ABI (cc/plugin/opbridge_plugin.h).
- `OrtCustomOpLibrary`: libraries written for ONNX Runtime's custom-op API
  (`RegisterCustomOps`), hosted by cc/ort without ONNX Runtime.
"""

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self

import _opbridge_plugins as _host
import numpy as np
import numpy.typing as npt

from opbridge.backends.host_plugins.dtypes import ONNX_NUMBERS, dtype_of_number, name_of_number, number_of_array
from opbridge.backends.host_plugins.limits import check_array
from opbridge.errors import PluginKernelError, PluginLoadError, UnsupportedOperatorError
from opbridge.ir import DType

Array = npt.NDArray[Any]
Attributes = Mapping[str, int | float | str | Sequence[int] | Sequence[float] | Sequence[str]]


class Ints(list[int]):
    """An INTS attribute: a list that keeps its kind when empty."""


class Floats(list[float]):
    """A FLOATS attribute."""


class Strings(list[str]):
    """A STRINGS attribute."""


_LOAD_HINT = "pass the path of a shared library built for this machine against the ABI named in docs/native_plugins.md"


class NodeKernel(Protocol):
    """One graph node's native kernel: created on its first run, kept until released."""

    def compute(self, inputs: Sequence[Array]) -> list[Array]: ...

    def release(self) -> None: ...

    @property
    def created(self) -> bool: ...


class _HostKernel:
    """Adapts a pybind11 kernel handle: arrays in, independent arrays out."""

    def __init__(self, handle: Any, what: str) -> None:
        self._handle = handle
        self._what = what

    @property
    def created(self) -> bool:
        return bool(self._handle.created)

    def compute(self, inputs: Sequence[Array]) -> list[Array]:
        tensors = []
        for position, array in enumerate(inputs):
            number = number_of_array(array)
            if number is None:
                raise ValueError(f"{self._what}: input {position} has unsupported dtype {array.dtype}")
            check_array(array, f"{self._what}: input {position}")
            # Bytes of a C-contiguous array (a copy only if it is not one);
            # the host copies them again before the plugin sees them.
            contiguous = np.ascontiguousarray(array).reshape(-1)
            tensors.append((number, list(array.shape), contiguous.view(np.uint8)))
        try:
            results = self._handle.compute(tensors)
        except _host.KernelError as error:
            raise PluginKernelError(str(error), hint="the plugin rejected this node or its inputs") from None
        outputs = []
        for number, shape, data in results:
            dtype = dtype_of_number(number)
            if dtype is None:
                raise PluginKernelError(f"{self._what} produced {name_of_number(number)}, which NumPy cannot hold")
            # The uint8 array owns the host's storage: the view is independent of any other output.
            outputs.append(data.view(dtype.numpy).reshape(shape))
        return outputs

    def release(self) -> None:
        self._handle.release()


@dataclasses.dataclass(frozen=True)
class NativeOpInfo:
    """An op of an opbridge-ABI plugin."""

    domain: str
    name: str
    since_version: int
    input_dtypes: tuple[frozenset[DType], ...]
    output_dtypes: tuple[frozenset[DType], ...]


def encode_attributes(attributes: Attributes, where: str) -> list[tuple[str, str, Any]]:
    """[(name, kind, value)] for the host: each value's kind, lists included (empty ones are ints
    unless typed with Ints, Floats or Strings, as CustomOpSession types a model's list attributes)."""
    encoded: list[tuple[str, str, Any]] = []
    for name, value in attributes.items():
        kind: str | None = None
        if isinstance(value, bool | int | np.integer):
            kind, value = "int", int(value)
        elif isinstance(value, float | np.floating):
            kind, value = "float", float(value)
        elif isinstance(value, str):
            kind = "string"
        elif isinstance(value, Floats | Ints | Strings):
            kind = {Floats: "floats", Ints: "ints", Strings: "strings"}[type(value)]
            value = list(value)
        elif isinstance(value, list | tuple | np.ndarray):
            items = list(value)
            if all(isinstance(item, bool | int | np.integer) for item in items):
                kind, value = "ints", [int(item) for item in items]
            elif all(isinstance(item, bool | int | float | np.number) for item in items):
                kind, value = "floats", [float(item) for item in items]
            elif all(isinstance(item, str) for item in items):
                kind, value = "strings", items
        if kind is None:
            what = "list of mixed or unsupported types" if isinstance(value, list | tuple) else type(value).__name__
            raise ValueError(
                f'{where}: attribute "{name}" is a {what}; native plugins take int, float, str and lists of those'
            )
        encoded.append((name, kind, value))
    return encoded


def _dtype_set(mask: int) -> frozenset[DType]:
    return frozenset(dtype for bit in range(32) if mask >> bit & 1 and (dtype := dtype_of_number(bit)) is not None)


class _Library:
    """A loaded library: `load(path)` by explicit path; `release()` drops this handle."""

    # The pybind11 class whose static open(path) loads this kind of library.
    _HOST_CLASS: Any = None

    def __init__(self, library: Any) -> None:
        self._library: Any = library

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Self:
        try:
            # The host refuses bare names (dlopen would search for them) and resolves the path.
            return cls(cls._HOST_CLASS.open(os.fspath(path)))
        except _host.LoadError as error:
            raise PluginLoadError(str(error), hint=_LOAD_HINT) from None

    @property
    def path(self) -> str:
        return str(self._library.path)

    def release(self) -> None:
        """Drops this handle; the library unloads once no kernel uses it."""
        self._library = None


class NativePlugin(_Library):
    """A library of opbridge-ABI ops (`opbridge_plugin_get_ops`)."""

    _HOST_CLASS = _host.PluginLibrary

    @property
    def api_version(self) -> int:
        return int(self._library.api_version)

    @property
    def ops(self) -> list[NativeOpInfo]:
        return [
            NativeOpInfo(
                op["domain"],
                op["name"],
                op["since_version"],
                tuple(_dtype_set(mask) for mask in op["input_dtypes"]),
                tuple(_dtype_set(mask) for mask in op["output_dtypes"]),
            )
            for op in self._library.ops()
        ]

    def find(self, domain: str, name: str, opset: int) -> NativeOpInfo | None:
        """The op with the highest since_version not above `opset`."""
        matches = [op for op in self.ops if op.domain == domain and op.name == name and op.since_version <= opset]
        return max(matches, key=lambda op: op.since_version, default=None)

    def kernel(self, domain: str, name: str, opset: int, attributes: Attributes, node_name: str) -> NodeKernel:
        if self.find(domain, name, opset) is None:
            known = sorted({f"{op.domain}::{op.name} (since {op.since_version})" for op in self.ops})
            raise UnsupportedOperatorError(
                f'node "{node_name}": plugin {self.path} has no op {domain}::{name} at opset {opset}',
                hint=f"it registers: {', '.join(known)}",
            )
        where = f'node "{node_name}" ({domain}::{name})'
        encoded = encode_attributes(attributes, where)
        handle = _host.NativeKernel(self._library, domain, name, opset, encoded, node_name)
        return _HostKernel(handle, where)


@dataclasses.dataclass(frozen=True)
class OrtOpInfo:
    """An op an ORT custom-op library registered; `unsupported` says why it cannot be hosted."""

    domain: str
    name: str
    api_version: int
    opsets: tuple[int, int]
    input_types: tuple[int, ...]
    output_types: tuple[int, ...]
    unsupported: str

    @property
    def input_dtypes(self) -> tuple[DType | None, ...]:
        return tuple(dtype_of_number(number) for number in self.input_types)

    @property
    def output_dtypes(self) -> tuple[DType | None, ...]:
        return tuple(dtype_of_number(number) for number in self.output_types)


class OrtCustomOpLibrary(_Library):
    """A library for ONNX Runtime's custom-op API, hosted without ONNX Runtime."""

    _HOST_CLASS = _host.OrtPluginLibrary

    @property
    def unique_symbols(self) -> list[str]:
        """GNU-unique symbols the library exports. When there are any, the host's private
        instance shares them with every other copy in the process (ONNX Runtime's included)."""
        return list(self._library.unique_symbols)

    @property
    def ops(self) -> list[OrtOpInfo]:
        return [
            OrtOpInfo(
                op["domain"],
                op["name"],
                op["version"],
                (op["start_version"], op["end_version"]),
                tuple(op["input_types"]),
                tuple(op["output_types"]),
                op["unsupported"],
            )
            for op in self._library.ops()
        ]

    def kernel(
        self,
        domain: str,
        name: str,
        opset: int,
        input_dtypes: Sequence[DType],
        attributes: Attributes,
        node_name: str,
    ) -> NodeKernel:
        where = f'node "{node_name}" ({domain}::{name})'
        types = [ONNX_NUMBERS[dtype] for dtype in input_dtypes]
        encoded = encode_attributes(attributes, where)
        try:
            # The host selects the overload for these exact input types and the
            # model's opset, or says why none fits (or why it cannot be hosted).
            handle = _host.OrtKernel(self._library, domain, name, opset, types, encoded, node_name)
        except ValueError as error:
            raise UnsupportedOperatorError(
                f'node "{node_name}": {error}',
                hint="check the node's domain, name, input types and the model's opset import of its domain",
            ) from None
        return _HostKernel(handle, where)
