# SPDX-License-Identifier: Apache-2.0
"""What one operator provides: its key, schema, reference implementation, importers and C emitter, and the
facts the passes, the planner, the quantizers and the analysis ask of it (its MACs, layout, int8 output
quantization and memory needs). A fact left at UNDECIDED is refused by tests/registration for a built-in."""

import dataclasses
import enum
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


class Undecided(enum.Enum):
    """The default of a fact an operator must state: tests/registration refuses a built-in that leaves one."""

    UNDECIDED = "undecided"


UNDECIDED = Undecided.UNDECIDED


# (graph, node, output_shape) -> the multiply-accumulates that compute output 0 of `output_shape`: the
# node's own shape, or one tile's (rows and columns of an NHWC output) in a patch stage (aot/patch_stage.py).
# What counts as one MAC: docs/adding_an_operator.md, "Operator facts".
MacCount = Callable[[Graph, Node, tuple[int, ...]], int]


class Layout(enum.Enum):
    """Whether an op's result depends on the layout of its inputs (passes/transposes.py moves the
    element-wise ones across the transposes that undo each other)."""

    # Element by element: out[i] = f(in_0[i], in_1[i], ...) for inputs of one shape, whatever the order
    # of the elements (no axis, no per-channel operand).
    ELEMENTWISE = "elementwise"
    # Element by element while its tensors are quantized per tensor (or not at all); a per-channel
    # quantization (an axis) makes it layout-dependent: QUANTIZE, DEQUANTIZE.
    ELEMENTWISE_PER_TENSOR = "elementwise_per_tensor"
    # Reads positions, axes, windows or per-channel operands: its result depends on the layout.
    LAYOUT_DEPENDENT = "layout_dependent"


class QuantizationKind(enum.Enum):
    """How the int8 form of an operator's output is quantized (the PT2E quantizer's annotation, the ONNX
    frontend's QDQ folding)."""

    # The output has the input's scale and zero point (the op moves or selects values, or
    # compares raw int8 values: reshape, transpose, max pool, channel shuffle, clamp ...).
    SAME_AS_INPUT = "same_as_input"
    # The output has fixed parameters, whatever the input (softmax, sigmoid: scale 1/256, zero point -128).
    FIXED = "fixed"
    # The output is observed on calibration data and gets parameters of its own (add, conv ...).
    OWN = "own"
    # The op has no int8 output: it runs in float32 (between a dequantize and a quantize), or its output
    # holds integers that are not quantized values (indices, int32 sums, casts).
    FLOAT = "float"


@dataclasses.dataclass(frozen=True)
class OutputQuantization:
    """`kind`, and for FIXED the scale and zero point (int8)."""

    kind: QuantizationKind
    scale: float | None = None
    zero_point: int | None = None

    def __post_init__(self) -> None:
        fixed = self.kind is QuantizationKind.FIXED
        if fixed != (self.scale is not None and self.zero_point is not None):
            raise ValueError("OutputQuantization: FIXED takes a scale and a zero point, the other kinds neither")
        if fixed and (not self.scale > 0 or not -128 <= int(self.zero_point) <= 127):  # type: ignore[operator,arg-type]
            raise ValueError(f"OutputQuantization: scale {self.scale} must be > 0, zero point in [-128, 127]")


SAME_AS_INPUT = OutputQuantization(QuantizationKind.SAME_AS_INPUT)
OWN = OutputQuantization(QuantizationKind.OWN)
FLOAT = OutputQuantization(QuantizationKind.FLOAT)


def fixed(scale: float, zero_point: int) -> OutputQuantization:
    return OutputQuantization(QuantizationKind.FIXED, scale, zero_point)


# TFLite's int8 SOFTMAX and LOGISTIC, and its TANH, assume these output parameters.
SOFTMAX_OUTPUT = fixed(1.0 / 256.0, -128)
TANH_OUTPUT = fixed(1.0 / 128.0, 0)


@dataclasses.dataclass(frozen=True)
class NodeMemory:
    """What a node's C needs of the arena besides its tensors (docs/memory_planner.md); each callable
    takes (graph, node). AotOperator's scratch_bytes, persistent_bytes, in_place, in_place_scratch_bytes,
    output_slices and aliases_input answer with the node's definition's NodeMemory (a plugin class may
    override them); resolve_operators collects their answers into ResolvedGraph for the planner."""

    # Bytes of arena scratch a node needs while it runs (planned ahead of time).
    scratch: Callable[[Graph, Node], int] | None = None
    # Bytes of state the node's C keeps from run to run (SVDF's activation state), planned in the
    # arena's persistent region; the emitter then returns NodeCode.init_statements that reset it
    # (run by <prefix>_init).
    persistent: Callable[[Graph, Node], int] | None = None
    # The C kernel may write its output over an input: it reads element i of each input before it
    # writes element i of the output, and never reads an element after writing it. The planner
    # then lets output 0 share the buffer of a same-size, same-width input that dies at this node
    # (docs/memory_planner.md, "In place"; tests/planner/in_place_test.py runs every such kernel aliased).
    # A predicate (graph, node) -> bool when only some nodes qualify (DEPTHWISE_CONV_2D: stride 1, equal shapes).
    in_place: bool | Callable[[Graph, Node], bool] = False
    # Scratch the C needs only when the node runs in place (planned only then, while it runs).
    in_place_scratch: Callable[[Graph, Node], int] | None = None
    # (graph, node) -> the byte offset of each input inside output 0 when every input is one
    # contiguous slice of it (CONCATENATION along its outermost axis), else None. The planner may
    # then have the producers write straight into those slices; the C must skip the copy of an
    # input already in place (EmitContext.in_slice).
    output_slices: Callable[[Graph, Node], list[int] | None] | None = None
    # Output 0 is a view of input 0 (the same bytes, another shape: RESHAPE, SQUEEZE): the planner gives
    # both one buffer and the C copies nothing.
    aliases_input: bool = False


# The memory of a node that needs nothing but its tensors' buffers.
NO_MEMORY = NodeMemory()


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
    # Constant inputs whose data the node's emitted C replaces with its own (e.g. a bias folded with
    # the weights' sums): the module leaves them out when no other node reads them.
    absorbed_constants: Callable[[Graph, Node], list[int]] | None = None
    doc: str = ""
    # Domain, name, version, inputs, outputs, type constraints, attributes and
    # the shape-and-dtype rule (opbridge.schemas); the op's attribute class is its attributes_class.
    schema: OpSchema | None = None
    # Keeps state between runs (ReferenceCall.state): never constant-folded.
    stateful: bool = False
    # (graph, node) -> the node whose ReferenceCall.state this node's reference shares (ASSIGN_VARIABLE
    # writes the state of its variable's READ_VARIABLE); None: the node's own state.
    state_owner: Callable[[Graph, Node], Node] | None = None
    # The facts (docs/adding_an_operator.md, "Operator facts"); UNDECIDED is refused by tests/registration
    # for a built-in and read as the cautious choice elsewhere (no MACs, layout-dependent, FLOAT, NO_MEMORY).
    # MACs of the node's output 0 (MacCount), or None: the op multiplies nothing.
    macs: MacCount | Undecided | None = UNDECIDED
    layout: Layout | Undecided = UNDECIDED
    # How its int8 output is quantized (FLOAT: it has none).
    quantization: OutputQuantization | Undecided = UNDECIDED
    memory: NodeMemory | Undecided = UNDECIDED
    # Its attributes' `activation` (a fused RELU, RELU6 or RELU_N1_TO_1) clamps its int8 and float32 output
    # as TFLite's fused activations do: passes/activation_fusion.py moves a RELU or RELU6 after it into it.
    fuses_activation: bool = False
    # A windowed int8 layer whose C takes any rows, columns and leading padding: a patch stage may run it
    # tile by tile (aot/patch_stage.py; CONV_2D, DEPTHWISE_CONV_2D).
    patch_tiles: bool = False
    # (graph, node) -> the kernel path the node's C takes (e.g. CONV_2D's "pointwise_narrow"), when the
    # op's kernels differ in cost per MAC by path: `opbridge analyze` fits an instruction line per path
    # (analysis/instruction_costs.py). None: one line for the operator and dtype.
    cost_class: Callable[[Graph, Node], str] | None = None
    # (graph, node) -> {input position: (low, high)}: integer inputs the op indexes with, valid in
    # [low, high) only (GATHER's positions). Golden data for a graph input read there is drawn in range.
    input_ranges: Callable[[Graph, Node], dict[int, tuple[int, int]]] | None = None


def node_memory(definition: OperatorDefinition) -> NodeMemory:
    """The definition's memory needs (NO_MEMORY while undecided)."""
    return NO_MEMORY if isinstance(definition.memory, Undecided) else definition.memory


def aliases_input(definition: OperatorDefinition | None) -> bool:
    """Whether the op's output 0 is a view of its input 0 (NodeMemory.aliases_input)."""
    return definition is not None and node_memory(definition).aliases_input


def is_elementwise(definition: OperatorDefinition | None) -> bool:
    """Whether the op's result is independent of its inputs' layout (an undecided op is taken as not)."""
    return definition is not None and definition.layout is Layout.ELEMENTWISE


def takes_int8(definition: OperatorDefinition | None) -> bool:
    """Whether the operator's schema takes an int8 first input."""
    schema = None if definition is None else definition.schema
    return (
        schema is not None
        and bool(schema.inputs)
        and any(dtype.value == "int8" for dtype in schema.constraint(schema.inputs[0].type_var).allowed)
    )


def output_quantization(definition: OperatorDefinition | None) -> OutputQuantization:
    """How the op's int8 output is quantized (an unknown or undecided op: FLOAT, no int8 rule)."""
    if definition is None or isinstance(definition.quantization, Undecided):
        return FLOAT
    return definition.quantization


def multiply_accumulates(
    definition: OperatorDefinition | None, graph: Graph, node: Node, output_shape: tuple[int, ...] | None = None
) -> int:
    """The node's MACs (0 when it multiplies nothing, or its definition does not say), for its whole
    output 0 or for an output of `output_shape` (a patch stage's tile)."""
    if definition is None or definition.macs is None or isinstance(definition.macs, Undecided):
        return 0
    shape = graph.tensor(node.outputs[0]).shape if output_shape is None else tuple(output_shape)
    return int(definition.macs(graph, node, shape))


def undecided_facts(definition: OperatorDefinition) -> list[str]:
    """The facts `definition` leaves UNDECIDED, by field name."""
    return [
        field.name for field in dataclasses.fields(definition) if isinstance(getattr(definition, field.name), Undecided)
    ]
