# SPDX-License-Identifier: Apache-2.0
"""What one operator provides: its key, schema, reference implementation, importers and C emitter."""

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy.typing as npt

from opbridge.errors import ModelFormatError
from opbridge.ir import Graph, Node, Tensor
from opbridge.ops.contracts import CEmitter, OnnxConvert, TorchConvert
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


# ONNX opsets of the default domain this frontend converts.
MIN_OPSET, MAX_OPSET = 13, 21


@dataclasses.dataclass(frozen=True)
class OnnxConverter:
    """Converts one standard ONNX op, for models importing ai.onnx at min_opset..max_opset.

    `domain` is "" for ONNX's own ops; a converter of another domain (onnxruntime's
    com.microsoft) is registered under "domain.op_type" and takes precedence over schemas.
    """

    op_type: str
    # (frontends.onnx.conversion.OnnxConversion, OnnxNode) -> None: adds the op's nodes to the graph being built.
    convert: OnnxConvert
    min_opset: int = MIN_OPSET
    max_opset: int = MAX_OPSET
    domain: str = ""

    @property
    def key(self) -> str:
        return converter_key(self.domain, self.op_type)


@dataclasses.dataclass(frozen=True)
class TorchCase:
    """One `declare_supported` case of a torch converter, run by tests/torch/converter_cases_test.py:
    eager torch against opbridge's reference against the emitted C. `build` receives the torch module
    (so that operator folders never import torch) and returns (an eval-mode nn.Module, example inputs)."""

    name: str
    build: Callable[[Any], tuple[Any, tuple[Any, ...]]]
    # Also quantized with opbridge's PT2E quantizer, and the int8 graph checked against torch's
    # convert_pt2e model (within one int8 step).
    int8: bool = True
    float32: bool = True
    # Converted after ExportedProgram.run_decompositions() (the core ATen ops: convolution, addmm, ...).
    decomposed: bool = False


@dataclasses.dataclass(frozen=True)
class TorchConverter:
    """Converts the `torch.export` nodes of one torch operator overload (TorchAir's contract).

    `target` is str(OpOverload): "aten.conv2d.default". `convert(translation, node)` receives a
    frontends.torch.translation.TorchTranslation and TorchNode (positional arguments with the
    schema's defaults filled in, graph values as names, the FakeTensor metadata as dtype and shape)
    and adds the node's operations. `cases` are its declare_supported cases."""

    target: str
    convert: TorchConvert
    cases: tuple[TorchCase, ...] = ()

    @property
    def key(self) -> str:
        return self.target


def converter_key(domain: str, op_type: str) -> str:
    """The onnx_converters key of an op: its type for ONNX's domain, else "domain.op_type"."""
    return op_type if domain in ("", "ai.onnx") else f"{domain}.{op_type}"


@dataclasses.dataclass(frozen=True)
class OperatorDefinition:
    """One operator: the canonical key and what each stage needs of it."""

    op_type: str
    reference: ReferenceImplementation
    litert_builtin_code: int | None = None
    litert_versions: frozenset[int] = frozenset({1})
    parse_litert_options: LiteRTParser | None = None
    emit_c: CEmitter | None = None
    # The ONNX ops that convert onto this operator (registered by key with the definition: onnx_converters).
    onnx_converters: tuple[OnnxConverter, ...] = ()
    # The torch operator overloads that convert onto this operator (registered by target: torch_converters).
    torch_converters: tuple[TorchConverter, ...] = ()
    # The C kernel files in cc/kernels that emit_c's code calls (tests/registration: they are linked;
    # //cc/kernels:c_kernels_test: they define every kernel the emitted C calls).
    c_kernels: tuple[str, ...] = ()
    # Bytes of arena scratch a node needs while it runs (planned ahead of time).
    scratch_bytes: Callable[[Graph, Node], int] | None = None
    # Constant inputs whose data the node's emitted C replaces with its own (e.g. a bias folded with
    # the weights' sums): the module leaves them out when no other node reads them.
    absorbed_constants: Callable[[Graph, Node], list[int]] | None = None
    doc: str = ""
    # Domain, name, version, inputs, outputs, type constraints, attributes and
    # the shape-and-dtype rule (opbridge.schemas); the op's attribute class is its attributes_class.
    schema: OpSchema | None = None
    # Keeps state between runs (ReferenceCall.state): never constant-folded.
    stateful: bool = False
    # Bytes of state the node's C keeps from run to run (SVDF's activation state), planned in the
    # arena's persistent region; the emitter then returns NodeCode.init_statements that reset it
    # (run by <prefix>_init).
    persistent_bytes: Callable[[Graph, Node], int] | None = None
    # (graph, node) -> the node whose ReferenceCall.state this node's reference shares (ASSIGN_VARIABLE
    # writes the state of its variable's READ_VARIABLE); None: the node's own state.
    state_owner: Callable[[Graph, Node], Node] | None = None
    # The C kernel may write its output over an input: it reads element i of each input before it
    # writes element i of the output, and never reads an element after writing it. The planner
    # then lets output 0 share the buffer of a same-size, same-width input that dies at this node
    # (docs/memory_planner.md, "In place"; tests/planner/in_place_test.py runs every such kernel aliased).
    # A predicate (graph, node) -> bool when only some nodes qualify (DEPTHWISE_CONV_2D: stride 1, equal shapes).
    in_place: bool | Callable[[Graph, Node], bool] = False
    # Scratch the C needs only when the node runs in place (planned only then, while it runs).
    in_place_scratch_bytes: Callable[[Graph, Node], int] | None = None
    # (graph, node) -> the byte offset of each input inside output 0 when every input is one
    # contiguous slice of it (CONCATENATION along its outermost axis), else None. The planner may
    # then have the producers write straight into those slices; the C must skip the copy of an
    # input already in place (EmitContext.in_slice).
    output_slices: Callable[[Graph, Node], list[int] | None] | None = None
    # (graph, node) -> {input position: (low, high)}: integer inputs the op indexes with, valid in
    # [low, high) only (GATHER's positions). Golden data for a graph input read there is drawn in range.
    input_ranges: Callable[[Graph, Node], dict[int, tuple[int, int]]] | None = None
