# SPDX-License-Identifier: Apache-2.0
"""The objects an operator's hooks receive, as Protocols.

An `OperatorDefinition` (layer 4) hands its C emitter, ONNX converters and
torch converters to stages of higher layers: the C backend, the ONNX
frontend and the PyTorch frontend. This module names what each hook is
called with, without importing those layers (docs/architecture.md,
"Layers"); the concrete classes satisfy the Protocols structurally:

| Protocol | implemented by |
|---|---|
| `CEmitContext` | `opbridge.backends.c.emit_context.EmitContext` |
| `CNodeCode` | `opbridge.backends.c.emit_context.NodeCode` |
| `OnnxConversionState` | `opbridge.frontends.onnx.conversion.OnnxConversion` |
| `OnnxNodeView` | `opbridge.frontends.onnx.conversion.OnnxNode` |
| `TorchTranslationState` | `opbridge.frontends.torch.translation.TorchTranslation` |
| `TorchNodeView` | `opbridge.frontends.torch.translation.TorchNode` |

Each Protocol lists the members operator folders use; the concrete class
has more (read it for the full contract). An operator's own hook may
annotate its parameters with the concrete class (`emit_relu(ctx:
EmitContext, node: Node) -> NodeCode`): operator folders sit in layer 8 and
may import it. `tests/architecture/contracts_test.py` checks that each
concrete class has every member its Protocol lists.
"""

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import DType, Graph, Node, Quantization, Tensor

# C emission ------------------------------------------------------------------


class CNodeCode(Protocol):
    """The C of one node: what `emit_c` returns (backends.c.emit_context.NodeCode)."""

    includes: list[str]
    # C text, or backends.c.kernel_call.ParamStruct values (parameter structs of calls in statements).
    definitions: list[Any]
    statements: list[str]
    # Run once from the module's init: resets persistent state.
    init_statements: list[str]
    # The node's kernel call as data (backends.c.kernel_call.KernelCall), or None.
    call: Any


class CEmitContext(Protocol):
    """Names in the module being emitted (backends.c.emit_context.EmitContext): tensors, constants,
    the arena's scratch and persistent regions, and per-node definitions."""

    prefix: str
    graph: Graph
    # backends.c.memory_plan.MemoryPlan: where every tensor, scratch and state lives.
    plan: Any

    def tensor_enum(self, index: int) -> str: ...

    def constant_symbol(self, index: int) -> str: ...

    def pointer(self, index: int) -> str: ...

    def optional_pointer(self, index: int | None) -> str: ...

    def scratch_pointer(self, node: Node, ctype: str) -> str: ...

    def persistent_pointer(self, node: Node, ctype: str) -> str: ...

    def shares_buffer(self, first: int, second: int) -> bool: ...

    def in_slice(self, tensor: int, whole: int, offset: int) -> bool: ...

    def node_symbol(self, node: Node) -> str: ...

    def local_symbol(self, node: Node, name: str) -> str: ...

    def int32_array(self, node: Node, name: str, values: Sequence[int] | np.ndarray) -> tuple[str, str]: ...

    def float32_array(self, node: Node, name: str, values: Sequence[float] | np.ndarray) -> tuple[str, str]: ...


class CEmitter(Protocol):
    """An operator's `emit_c`: (EmitContext, Node) -> NodeCode, the C of one node."""

    def __call__(self, ctx: CEmitContext, node: Node, /) -> CNodeCode: ...


# ONNX conversion ----------------------------------------------------------------


class OnnxNodeView(Protocol):
    """One ONNX node as a converter sees it (frontends.onnx.conversion.OnnxNode)."""

    @property
    def op_type(self) -> str: ...

    @property
    def domain(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def inputs(self) -> tuple[str, ...]: ...  # value names, "" for an omitted input

    @property
    def outputs(self) -> tuple[str, ...]: ...

    @property
    def attributes(self) -> dict[str, Any]: ...  # ONNX attributes, decoded

    def describe(self) -> str: ...

    def attribute(self, name: str, default: Any = None) -> Any: ...

    def unsupported(self, problem: str, hint: str = "") -> UnsupportedOperatorError: ...


class OnnxConversionState(Protocol):
    """The graph an ONNX model converts into (frontends.onnx.conversion.OnnxConversion): ONNX value
    names bound to tensors, and `emit` to add a node of an operator key."""

    source: str
    tensors: list[Tensor]
    by_name: dict[str, int]

    def add_tensor(
        self,
        name: str,
        dtype: DType,
        shape: tuple[int, ...],
        data: np.ndarray | None = None,
        quantization: Quantization | None = None,
        *,
        bind: bool = True,
    ) -> int: ...

    def value(self, name: str, node: Any = None) -> int: ...

    def tensor(self, index: int) -> Tensor: ...

    def constant_value(self, name: str, node: Any, role: str) -> np.ndarray: ...

    def constant(self, array: np.ndarray, dtype: DType, name: str, quantization: Quantization | None = None) -> int: ...

    def alias(self, name: str, index: int) -> None: ...

    def emit(
        self,
        op_key: str,
        inputs: list[int | None],
        attributes: Any,
        *,
        name: str,
        outputs: tuple[str, ...] | int = 1,
        quantization: list[Quantization | None] | None = None,
    ) -> list[int]: ...


class OnnxConvert(Protocol):
    """An `OnnxConverter`'s `convert`: (OnnxConversion, OnnxNode) -> None, adds the op's nodes."""

    def __call__(self, conversion: OnnxConversionState, node: OnnxNodeView, /) -> None: ...


# PyTorch translation ------------------------------------------------------------


class TorchNodeView(Protocol):
    """One torch.export node as a converter sees it (frontends.torch.translation.TorchNode)."""

    @property
    def target(self) -> str: ...  # str(OpOverload): "aten.conv2d.default"

    @property
    def name(self) -> str: ...

    @property
    def args(self) -> tuple[Any, ...]: ...  # positional, defaults filled; Value for graph values

    @property
    def output_names(self) -> tuple[str, ...]: ...

    def describe(self) -> str: ...

    def arg(self, name: str) -> Any: ...

    def unsupported(self, problem: str, hint: str = "") -> UnsupportedOperatorError: ...


class TorchTranslationState(Protocol):
    """ONNX-semantics nodes written for a torch.export program (frontends.torch.translation
    .TorchTranslation): graph values by name, `onnx` for a standard ONNX node, `operator` for a node
    of an opbridge operator key."""

    @property
    def node(self) -> Any: ...  # the TorchNode being converted

    def name(self, value: Any, role: str = "input") -> str: ...

    def resolve(self, name: str) -> str: ...

    def meta(self, value: Any) -> Any: ...  # a TensorMeta: dtype and shape

    def constant_data(self, value: Any) -> np.ndarray | None: ...

    def constant(self, array: Any, dtype: DType, role: str = "constant") -> str: ...

    def alias(self, name: str, source: str) -> None: ...

    def onnx(
        self,
        op_type: str,
        inputs: Sequence[str],
        *,
        outputs: Sequence[str] | int | None = None,
        domain: str = "",
        **attributes: Any,
    ) -> list[str]: ...

    def operator(
        self, op_type: str, inputs: Sequence[str | None], attributes: Any, *, outputs: Sequence[str] | int | None = None
    ) -> list[str]: ...


class TorchConvert(Protocol):
    """A `TorchConverter`'s `convert`: (TorchTranslation, TorchNode) -> None, adds the node's operations."""

    def __call__(self, translation: TorchTranslationState, node: TorchNodeView, /) -> None: ...
