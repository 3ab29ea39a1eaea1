"""What one operator provides: its key, importers and reference implementation."""

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from opbridge.errors import ModelFormatError
from opbridge.ir import Graph, Node, Tensor
from opbridge.schemas.schema import OpSchema

Array = npt.NDArray[Any]


@dataclasses.dataclass(frozen=True)
class ReferenceCall:
    """Everything a reference implementation sees for one node."""

    graph: Graph
    node: Node
    inputs: list[Tensor | None]
    outputs: list[Tensor]
    values: list[Array | None]  # input values, in node input order
    # The node's state, kept by the interpreter from run to run (empty after
    # a reset); a stateful operator keeps what it carries between calls here.
    state: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def attributes(self) -> Any:
        return self.node.attributes

    def input_tensor(self, position: int) -> Tensor:
        """The tensor of a required input; a missing one is a damaged model."""
        tensor = self.inputs[position] if position < len(self.inputs) else None
        if tensor is None:
            raise ModelFormatError(
                f"{self.node.describe()}: required input {position} is missing",
                hint="the model is damaged or was exported by a tool that omits required inputs",
            )
        return tensor

    def optional_input_tensor(self, position: int) -> Tensor | None:
        return self.inputs[position] if position < len(self.inputs) else None

    def value(self, position: int) -> Array:
        value = self.values[position]
        if value is None:
            raise ValueError(f"{self.node.describe()}: input {position} is missing")
        return value


# Options of one LiteRT operator -> the op's typed attributes.
LiteRTParser = Callable[[Any], Any]
# One node's input values -> its output values (NumPy arrays of the output dtypes).
ReferenceImplementation = Callable[[ReferenceCall], list[Array]]
# (backends.c.emit_context.EmitContext, Node) -> backends.c.emit_context.NodeCode.
CEmitter = Callable[[Any, Node], Any]


@dataclasses.dataclass(frozen=True)
class OperatorDefinition:
    """One operator: the canonical key and what each stage needs of it."""

    op_type: str
    reference: ReferenceImplementation
    litert_builtin_code: int | None = None
    litert_versions: frozenset[int] = frozenset({1})
    parse_litert_options: LiteRTParser | None = None
    emit_c: CEmitter | None = None
    # Bytes of arena scratch a node needs while it runs (planned ahead of time).
    scratch_bytes: Callable[[Graph, Node], int] | None = None
    doc: str = ""
    # Domain, name, version, inputs, outputs, type constraints, attributes and
    # the shape-and-dtype rule (opbridge.schemas); the op's attribute class is its attributes_class.
    schema: OpSchema | None = None
    # Keeps state between runs (ReferenceCall.state): never constant-folded.
    stateful: bool = False


def empty_like_output(tensor: Tensor) -> Array:
    return np.zeros(tensor.shape, dtype=tensor.dtype.numpy)
