# SPDX-License-Identifier: Apache-2.0
"""What a torch converter works with: one `torch.export` node and the graph being built.

A converter (`TorchConverter.convert`, in an operator folder's torch.py) reads a
`TorchNode`: its overload's positional arguments with the schema's defaults
filled in, graph values as `Value`s, and the dtype and shape of each output
from the node's FakeTensor. It adds operations through `TorchTranslation`:

- `onnx(op_type, inputs, **attributes)`: an ONNX operator of the default domain
  (opset 21 semantics). The torch frontend then runs the ONNX frontend's passes
  on these nodes (QDQ fusion, batch-norm folding) and converts them with the
  ONNX converters of the operator folders, so PyTorch and ONNX models share one
  layout handling (NCHW values, NHWC kernels, transposes cancelled) and one set
  of int8 rules;
- `operator(op_type, inputs, attributes)`: an opbridge operator directly (custom
  operators and ops ONNX has no counterpart for);
- `constant(array, dtype)`, `alias(value, source)`.

No module here imports torch: the reader (program.py) turns fx nodes into
TorchNodes, so converters and their operator folders never need it.
`TorchConverter.convert` is declared with the Protocols the two classes satisfy
(opbridge.ops.contracts: TorchConvert, TorchTranslationState, TorchNodeView).
"""

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from opbridge.errors import ModelFormatError, UnsupportedOperatorError
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.quantized_helpers import REQUANTIZATION
from opbridge.ir import DType

# The domain of a node that is an opbridge operator already (TorchTranslation.operator):
# its "attributes" entry holds the operator's attribute object.
OPBRIDGE_DOMAIN = "opbridge.torch"
ATTRIBUTES = "attributes"


@dataclasses.dataclass(frozen=True)
class Value:
    """A graph value: the output of an earlier node, a graph input, a parameter or buffer."""

    name: str


@dataclasses.dataclass(frozen=True)
class TensorMeta:
    """A value's dtype and static shape, from its FakeTensor."""

    dtype: DType
    shape: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class TorchNode:
    """One `call_function` node of an exported program, as converters see it."""

    target: str  # str(OpOverload): "aten.conv2d.default"
    name: str  # the fx node's name, unique in the graph
    args: tuple[Any, ...]  # positional, defaults filled; Value for graph values (also inside lists)
    argument_names: tuple[str, ...]
    outputs: tuple[TensorMeta | None, ...]  # one per output (None: not a tensor)
    position: int
    source_line: str = ""  # where in the user's model the node comes from, when torch recorded it

    def describe(self) -> str:
        where = f" at {self.source_line}" if self.source_line else ""
        return f'node {self.position} ({self.target} "{self.name}"{where})'

    def arg(self, name: str) -> Any:
        """An argument by its schema name."""
        try:
            return self.args[self.argument_names.index(name)]
        except ValueError:
            raise KeyError(f"{self.target} has no argument {name!r}") from None

    @property
    def output_names(self) -> tuple[str, ...]:
        """The value names of its outputs: the node's name for one output, name.i for several."""
        if len(self.outputs) == 1:
            return (self.name,)
        return tuple(f"{self.name}.{i}" for i in range(len(self.outputs)))

    @property
    def output(self) -> TensorMeta:
        meta = self.outputs[0] if self.outputs else None
        if meta is None:
            raise ModelFormatError(f"{self.describe()}: its output is not a tensor")
        return meta

    def unsupported(self, problem: str, hint: str = "") -> UnsupportedOperatorError:
        return UnsupportedOperatorError(f"{self.describe()}: {problem}", hint=hint)


class TorchTranslation:
    """The nodes translated so far (ONNX-semantics and direct opbridge nodes) and the constants,
    which are tensors of `conversion` from the start (parameters, buffers, folded weights)."""

    def __init__(self, conversion: OnnxConversion, *, requantization: str = "tflite") -> None:
        self.conversion = conversion
        self.requantization = requantization  # the REQUANTIZATION marker of every node: "tflite" or "onnx"
        self.nodes: list[OnnxNode] = []
        self.metas: dict[str, TensorMeta] = {}
        self._renamed: dict[str, str] = {}
        self._node: TorchNode | None = None
        self._unique = 0

    # Values -----------------------------------------------------------------

    def name(self, value: Any, role: str = "input") -> str:
        """The value name of a graph value (following aliases); anything else is refused."""
        if not isinstance(value, Value):
            raise self.node.unsupported(f"{role} {value!r} is not a tensor of the graph")
        name = value.name
        while name in self._renamed:
            name = self._renamed[name]
        return name

    def resolve(self, name: str) -> str:
        while name in self._renamed:
            name = self._renamed[name]
        return name

    def meta(self, value: Value | str) -> TensorMeta:
        name = self.name(value) if isinstance(value, Value) else self.resolve(value)
        meta = self.metas.get(name)
        if meta is None:
            raise ModelFormatError(f"{self.conversion.source}: value {name!r} has no tensor metadata")
        return meta

    def constant_data(self, value: Value | str) -> np.ndarray | None:
        """The data of a constant value (parameter, buffer, folded constant), else None."""
        name = self.name(value) if isinstance(value, Value) else self.resolve(value)
        index = self.conversion.by_name.get(name)
        return None if index is None else self.conversion.tensor(index).data

    def constant(self, array: Any, dtype: DType, role: str = "constant") -> str:
        """A new constant value; returns its name."""
        self._unique += 1
        data = np.ascontiguousarray(np.asarray(array, dtype=dtype.numpy))
        name = f"{self.node.name}/{role}:{self._unique}"
        self.conversion.add_tensor(name, dtype, data.shape, data)
        self.metas[name] = TensorMeta(dtype, tuple(int(d) for d in data.shape))
        return name

    def alias(self, name: str, source: str) -> None:
        """Value `name` is value `source` (dropout, clone, contiguous, getitem of a folded tuple ...)."""
        self._renamed[name] = self.resolve(source)

    # Nodes ------------------------------------------------------------------

    @property
    def node(self) -> TorchNode:
        if self._node is None:
            raise RuntimeError("no torch node is being converted")
        return self._node

    def begin(self, node: TorchNode) -> None:
        self._node = node

    def _output_names(self, outputs: Sequence[str] | int) -> tuple[str, ...]:
        if isinstance(outputs, int):
            names = []
            for _ in range(outputs):
                self._unique += 1
                names.append(f"{self.node.name}/{self._unique}")
            return tuple(names)
        return tuple(outputs)

    def onnx(
        self,
        op_type: str,
        inputs: Sequence[str],
        *,
        outputs: Sequence[str] | int | None = None,
        domain: str = "",
        **attributes: Any,
    ) -> list[str]:
        """Adds an ONNX node (opset 21 semantics; "" for an omitted input). Without `outputs` it writes
        the torch node's own outputs. Returns the output names."""
        names = self.node.output_names if outputs is None else self._output_names(outputs)
        self.nodes.append(
            OnnxNode(
                op_type=op_type,
                domain=domain,
                name=self.node.name if outputs is None else f"{self.node.name}/{op_type}",
                inputs=tuple(self.resolve(i) if i else "" for i in inputs),
                outputs=names,
                # How int8 convolutions and linears rescale (read_exported_program's int8_arithmetic).
                attributes={
                    REQUANTIZATION: self.requantization,
                    **{k: v for k, v in attributes.items() if v is not None},
                },
                position=self.node.position,
            )
        )
        return list(names)

    def operator(
        self, op_type: str, inputs: Sequence[str | None], attributes: Any, *, outputs: Sequence[str] | int | None = None
    ) -> list[str]:
        """Adds a node of the opbridge operator `op_type` with its attribute object."""
        names = self.node.output_names if outputs is None else self._output_names(outputs)
        self.nodes.append(
            OnnxNode(
                op_type=op_type,
                domain=OPBRIDGE_DOMAIN,
                name=self.node.name,
                inputs=tuple(self.resolve(i) if i else "" for i in inputs),
                outputs=names,
                attributes={ATTRIBUTES: attributes},
                position=self.node.position,
            )
        )
        return list(names)


def ints(value: Any, node: TorchNode, role: str) -> tuple[int, ...]:
    """A list-of-ints argument (an int is one element); a symbolic size is a dynamic shape."""
    values = value if isinstance(value, list | tuple) else [value]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise node.unsupported(
            f"{role} {value!r} is not a list of fixed integers",
            hint="export with static shapes (no torch.export.Dim); opbridge plans memory ahead of time",
        )
    return tuple(int(v) for v in values)
