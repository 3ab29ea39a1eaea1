# SPDX-License-Identifier: Apache-2.0
"""Operator schemas: what an operator takes, gives and accepts, in one place.

A schema names an operator (domain, name, since_version), documents its
inputs and outputs (optional and variadic ones marked), constrains their
element types through type variables, lists its attributes (derived from the
op's attribute dataclass, so there is one definition of them), infers output
dtypes and shapes, and may carry a function body that decomposes the op into
other ops (exported to ONNX so onnxruntime can run a model that uses it).
"""

import dataclasses
import enum
from collections.abc import Callable, Sequence
from typing import Any

from opbridge.errors import OpbridgeError, SchemaError
from opbridge.ir import DType, Quantization, Tensor
from opbridge.ir.attribute_specs import AttributeSpec, attribute_specs


class ShapeInferenceError(OpbridgeError):
    """A node's inputs or attributes break its schema, or its outputs differ from what the schema infers."""


class ParameterOption(enum.Enum):
    SINGLE = "single"  # exactly one tensor
    OPTIONAL = "optional"  # may be omitted (only trailing positions, or None)
    VARIADIC = "variadic"  # one or more tensors (last input or output only)


@dataclasses.dataclass(frozen=True)
class FormalParameter:
    """One input or output: its name, type variable and whether it may be omitted or repeated."""

    name: str
    type_var: str
    doc: str = ""
    option: ParameterOption = ParameterOption.SINGLE


@dataclasses.dataclass(frozen=True)
class TypeConstraint:
    """The element types a type variable may take. Every parameter of one variable has the same dtype."""

    type_var: str
    allowed: tuple[DType, ...]
    doc: str = ""


@dataclasses.dataclass(frozen=True)
class TensorType:
    """What inference knows of a value: dtype and shape (-1: known only at run time)."""

    dtype: DType
    shape: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class InputInfo:
    """One input as inference sees it; `value` is set for constants."""

    dtype: DType
    shape: tuple[int, ...]
    quantization: Quantization | None = None
    value: Any = None

    @classmethod
    def of(cls, tensor: Tensor) -> "InputInfo":
        return cls(tensor.dtype, tuple(tensor.shape), tensor.quantization, tensor.data)


@dataclasses.dataclass(frozen=True)
class InferenceContext:
    """What a shape-and-dtype inference function reads: inputs (None: omitted) and attributes."""

    node_description: str
    inputs: Sequence[InputInfo | None]
    attributes: Any

    def input(self, position: int) -> InputInfo:
        info = self.inputs[position] if position < len(self.inputs) else None
        if info is None:
            raise ShapeInferenceError(f"{self.node_description}: required input {position} is missing")
        return info

    def has_input(self, position: int) -> bool:
        return position < len(self.inputs) and self.inputs[position] is not None

    def fail(self, problem: str, hint: str = "") -> ShapeInferenceError:
        """An error naming the node; `raise ctx.fail(...)` in an inference function."""
        return ShapeInferenceError(f"{self.node_description}: {problem}", hint=hint)


# Output types from the inputs and attributes; raises ShapeInferenceError (ctx.fail) on bad input.
InferenceFunction = Callable[[InferenceContext], list[TensorType]]


@dataclasses.dataclass(frozen=True)
class AttributeRef:
    """In a function body: the value of the op's own attribute `name` (ONNX's ref_attr_name)."""

    name: str


@dataclasses.dataclass(frozen=True)
class FunctionNode:
    """One node of a function body. Inputs and outputs name the schema's formal
    parameters or the body's own intermediate values ("" for an omitted input);
    attribute values are literals, or AttributeRef to the op's own attributes."""

    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    domain: str = ""
    attributes: tuple[tuple[str, Any], ...] = ()


@dataclasses.dataclass(frozen=True)
class FunctionBody:
    """A decomposition of the op into other ops (ONNX ops by default) and the opsets it uses."""

    nodes: tuple[FunctionNode, ...]
    opset_imports: tuple[tuple[str, int], ...] = (("", 13),)


@dataclasses.dataclass(frozen=True)
class OpSchema:
    """The schema of one version of one operator."""

    domain: str
    name: str
    since_version: int
    inputs: tuple[FormalParameter, ...]
    outputs: tuple[FormalParameter, ...]
    type_constraints: tuple[TypeConstraint, ...]
    infer: InferenceFunction
    attributes_class: type | None = None
    doc: str = ""
    function_body: FunctionBody | None = None
    # The op acts only on module state (ASSIGN_VARIABLE stores a variable): it may have no outputs.
    state_only: bool = False

    def __post_init__(self) -> None:
        check_schema(self)

    @property
    def attributes(self) -> tuple[AttributeSpec, ...]:
        return attribute_specs(self.attributes_class)

    def describe(self) -> str:
        """'opbridge.ADD (since version 1)', for messages."""
        return f"{self.domain or 'ai.onnx'}.{self.name} (since version {self.since_version})"

    def constraint(self, type_var: str) -> TypeConstraint:
        for constraint in self.type_constraints:
            if constraint.type_var == type_var:
                return constraint
        raise KeyError(type_var)


def _is_identifier_like(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def check_schema(schema: OpSchema) -> None:
    """Every field well formed: names, version, parameters, type variables, attributes, body."""
    where = f"schema {schema.domain}.{schema.name}"
    if not _is_identifier_like(schema.name):
        raise SchemaError(f"{where}: name {schema.name!r} is not an identifier", hint="use letters, digits and _")
    if schema.domain and not _is_identifier_like(schema.domain):
        raise SchemaError(f"{where}: domain {schema.domain!r} is not a dotted identifier", hint="e.g. com.example")
    if not isinstance(schema.since_version, int) or isinstance(schema.since_version, bool) or schema.since_version < 1:
        raise SchemaError(f"{where}: since_version must be an int >= 1, got {schema.since_version!r}")
    if not callable(schema.infer):
        raise SchemaError(f"{where}: infer must be a function (InferenceContext -> list[TensorType])")
    constraints: dict[str, TypeConstraint] = {}
    for constraint in schema.type_constraints:
        if constraint.type_var in constraints:
            raise SchemaError(f"{where}: type variable {constraint.type_var!r} is constrained twice")
        if not constraint.allowed or not all(isinstance(d, DType) for d in constraint.allowed):
            raise SchemaError(f"{where}: type variable {constraint.type_var!r} needs one or more DType values")
        constraints[constraint.type_var] = constraint
    for role, parameters in (("input", schema.inputs), ("output", schema.outputs)):
        names = set()
        for position, parameter in enumerate(parameters):
            if parameter.name in names or not parameter.name.isidentifier():
                raise SchemaError(
                    f"{where}: {role} {position} name {parameter.name!r} is repeated or not an identifier"
                )
            names.add(parameter.name)
            if parameter.type_var not in constraints:
                raise SchemaError(
                    f"{where}: {role} {parameter.name!r} uses type variable {parameter.type_var!r}, "
                    "which has no constraint",
                    hint=f"add TypeConstraint({parameter.type_var!r}, (DType...,))",
                )
            if parameter.option is ParameterOption.VARIADIC and position != len(parameters) - 1:
                raise SchemaError(f"{where}: variadic {role} {parameter.name!r} must be the last {role}")
    if not schema.outputs and not schema.state_only:
        raise SchemaError(
            f"{where}: an operator has at least one output", hint="unless it only writes state (state_only=True)"
        )
    if schema.outputs and schema.state_only:
        raise SchemaError(f"{where}: a state_only operator has no outputs")
    schema.attributes  # noqa: B018 (raises SchemaError on an unsupported attribute type)
    if schema.function_body is not None:
        if not schema.function_body.nodes:
            raise SchemaError(f"{where}: a function body needs at least one node")
        known = {p.name for p in schema.inputs} | {""}
        declared = {spec.name for spec in schema.attributes}
        for node in schema.function_body.nodes:
            for key, value in node.attributes:
                if isinstance(value, AttributeRef) and value.name not in declared:
                    raise SchemaError(
                        f"{where}: function body node {node.op_type} attribute {key!r} refers to "
                        f"{value.name!r}, which the schema does not declare"
                    )
            for name in node.inputs:
                if name not in known:
                    raise SchemaError(f"{where}: function body node {node.op_type} reads {name!r} before it is written")
            known.update(node.outputs)
        for output in schema.outputs:
            if output.name not in known:
                raise SchemaError(f"{where}: the function body never writes output {output.name!r}")


# Shorthands for schemas written by hand.
ALL_INTEGERS = (
    DType.INT8,
    DType.UINT8,
    DType.INT16,
    DType.UINT16,
    DType.INT32,
    DType.UINT32,
    DType.INT64,
    DType.UINT64,
)


NUMERIC = (*ALL_INTEGERS, DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64)


ANY_TYPE = (DType.BOOL, *NUMERIC)


@dataclasses.dataclass(frozen=True)
class SameAsInput:
    """The declarative rule of an op whose one output has the dtype and shape of input `position`.

    A rule that is data, not code: generated hosts (the OpenVINO extension) write it in C++ from this."""

    position: int = 0

    def __call__(self, ctx: "InferenceContext") -> list[TensorType]:
        info = ctx.input(self.position)
        return [TensorType(info.dtype, info.shape)]


def same_as_input(position: int = 0) -> InferenceFunction:
    """Inference of an op whose one output has the dtype and shape of input `position`."""
    return SameAsInput(position)
