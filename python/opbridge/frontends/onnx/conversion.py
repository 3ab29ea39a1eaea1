# SPDX-License-Identifier: Apache-2.0
"""What an ONNX operator converter works with: the graph being built.

A converter (an operator folder's onnx.py) reads one ONNX node through
`OnnxNode` and adds opbridge nodes with `OnnxConversion.emit`, which takes
the op's key, its inputs and attributes and creates the outputs with the
dtypes and shapes the op's schema infers. ONNX value names map to tensor
indices (`value`); `constant` adds initializer-like data. `OnnxConverter.convert`
is declared with the Protocols the two classes satisfy (opbridge.ops.contracts:
OnnxConvert, OnnxConversionState, OnnxNodeView).
"""

import copy
import dataclasses
from typing import Any

import numpy as np

from opbridge.errors import ModelFormatError, UnsupportedOperatorError
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.definition import QuantizationKind, output_quantization
from opbridge.registry_context import RegistryContext
from opbridge.schemas.inference import infer_node


def _same_kind(value: Any, default: Any) -> bool:
    if isinstance(default, bool | int):
        return isinstance(value, int)
    if isinstance(default, float):
        return isinstance(value, int | float)
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, tuple | list):
        element = default[0] if default else 0
        return isinstance(value, tuple | list) and all(_same_kind(v, element) for v in value)
    return True


def _kind_name(default: Any) -> str:
    if isinstance(default, tuple | list):
        return f"a list of {_kind_name(default[0] if default else 0)}s"
    return {bool: "an integer", int: "an integer", float: "a number", str: "a string"}.get(type(default), "valid")


@dataclasses.dataclass(frozen=True)
class OnnxNode:
    """One ONNX node: op, name, value names ("" for an omitted input) and decoded attributes."""

    op_type: str
    domain: str
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attributes: dict[str, Any]
    position: int

    def describe(self) -> str:
        return f'node {self.position} ({self.domain or "ai.onnx"}.{self.op_type} "{self.name}")'

    def attribute(self, name: str, default: Any = None) -> Any:
        """The attribute's value, or `default`; a value of another kind than the default's
        (an int for an int, ints for a tuple of ints, ...) is a ModelFormatError."""
        if name not in self.attributes:
            return default
        value = self.attributes[name]
        if default is not None and not _same_kind(value, default):
            raise ModelFormatError(
                f"{self.describe()}: attribute {name}={value!r} is not {_kind_name(default)}",
                hint="the model is damaged or was written for another operator version; re-export it",
            )
        return value

    def unsupported(self, problem: str, hint: str = "") -> UnsupportedOperatorError:
        return UnsupportedOperatorError(f"{self.describe()}: {problem}", hint=hint)


class OnnxConversion:
    """The tensors and nodes of the graph being built, by ONNX value name."""

    def __init__(self, name: str, context: RegistryContext, source: str) -> None:
        self.name = name
        self.context = context
        self.source = source
        self.tensors: list[Tensor] = []
        self.nodes: list[Node] = []
        self.by_name: dict[str, int] = {}
        self._probe = Graph(name, [], [], [], [])  # for inference: the tensors so far, no schedule
        self._unique = 0

    # Values -----------------------------------------------------------------

    def add_tensor(
        self,
        name: str,
        dtype: DType,
        shape: tuple[int, ...],
        data: np.ndarray | None = None,
        quantization: Quantization | None = None,
        *,
        bind: bool = True,
    ) -> int:
        if bind and name in self.by_name:
            raise ModelFormatError(f'{self.source}: value "{name}" is defined twice', hint="the graph is not SSA")
        index = len(self.tensors)
        self.tensors.append(Tensor(index, name, dtype, tuple(int(d) for d in shape), quantization, data))
        if bind:
            self.by_name[name] = index
        return index

    def value(self, name: str, node: OnnxNode | None = None) -> int:
        """The tensor of an ONNX value written earlier (or a graph input or initializer)."""
        if name not in self.by_name:
            where = node.describe() if node is not None else "the graph"
            raise ModelFormatError(f'{self.source}: {where} reads "{name}" before any node writes it')
        return self.by_name[name]

    def tensor(self, index: int) -> Tensor:
        return self.tensors[index]

    def constant_value(self, name: str, node: OnnxNode, role: str) -> np.ndarray:
        """The data of an input that must be a constant (a converter's static parameter)."""
        tensor = self.tensors[self.value(name, node)]
        if tensor.data is None:
            raise node.unsupported(
                f"{role} ({name!r}) must be a constant",
                hint="fold it into the model (e.g. onnxsim), or export with static shapes",
            )
        return tensor.data

    def constant(self, array: np.ndarray, dtype: DType, name: str, quantization: Quantization | None = None) -> int:
        """A new constant tensor (not an ONNX value)."""
        self._unique += 1
        data = np.ascontiguousarray(array, dtype=dtype.numpy)
        return self.add_tensor(f"{name}:{self._unique}", dtype, data.shape, data, quantization, bind=False)

    def alias(self, name: str, index: int) -> None:
        """ONNX value `name` is tensor `index` (Identity-like nodes)."""
        if name in self.by_name:
            raise ModelFormatError(f'{self.source}: value "{name}" is defined twice', hint="the graph is not SSA")
        self.by_name[name] = index

    # Nodes ------------------------------------------------------------------

    def emit(
        self,
        op_key: str,
        inputs: list[int | None],
        attributes: Any,
        *,
        name: str,
        outputs: tuple[str, ...] | int = 1,
        quantization: list[Quantization | None] | None = None,
    ) -> list[int]:
        """Adds a node of `op_key`; its outputs (ONNX names to bind, or a count of new
        values) get the dtypes and shapes its schema infers. Returns their indices."""
        definition = self.context.operators.get(op_key)
        if definition is None or definition.schema is None:
            raise UnsupportedOperatorError(f"{self.source}: operator {op_key!r} has no registered schema")
        names = tuple(f"{name}:{i}" for i in range(outputs)) if isinstance(outputs, int) else outputs
        bind = not isinstance(outputs, int)
        node = Node(len(self.nodes), name, op_key, list(inputs), [-1] * len(names), attributes)
        probe = copy.copy(self._probe)
        probe.tensors = self.tensors
        inferred = infer_node(probe, node, definition.schema)
        if quantization is None:
            quantization = [self._inherited_quantization(op_key, inputs, t.dtype) for t in inferred]
        node.outputs = [
            self.add_tensor(n, t.dtype, t.shape, quantization=q, bind=bind)
            for n, t, q in zip(names, inferred, quantization, strict=True)
        ]
        self.nodes.append(node)
        return node.outputs

    def _inherited_quantization(self, op_key: str, inputs: list[int | None], dtype: DType) -> Quantization | None:
        """An int8 output of an op that only moves values keeps its input's quantization (its definition's
        quantization is SAME_AS_INPUT: the transposes and reshapes around the ops of QDQ models, the max
        pools and pads between them, slices)."""
        if dtype is not DType.INT8 or not inputs or inputs[0] is None:
            return None
        if output_quantization(self.context.operators.get(op_key)).kind is not QuantizationKind.SAME_AS_INPUT:
            return None
        return self.tensors[inputs[0]].quantization

    def graph(self, inputs: list[int], outputs: list[str]) -> Graph:
        output_indices = []
        for name in outputs:
            if name not in self.by_name:
                raise ModelFormatError(f'{self.source}: graph output "{name}" is never written')
            output_indices.append(self.by_name[name])
        try:
            return Graph(self.name, self.tensors, self.nodes, inputs, output_indices)
        except ValueError as error:
            raise ModelFormatError(f"{self.source}: {error}") from None
