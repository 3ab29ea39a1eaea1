# SPDX-License-Identifier: Apache-2.0
"""Checking a node against its schema, and inferring its output types.

`infer_node` is the whole rule of one node: input count (optional and
variadic inputs), each input's dtype against its type variable (one dtype
per variable), attribute values against the attribute class, then the
schema's own inference function. `check_outputs` compares the result with
the output tensors a frontend or rewrite produced, and fills in the ones
that are not known yet (empty dtype-less placeholders).
"""

import enum
from typing import Any

from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_specs import AttributeType
from opbridge.schemas.schema import (
    InferenceContext,
    InputInfo,
    OpSchema,
    ParameterOption,
    ShapeInferenceError,
    TensorType,
)


def _check_arity(node: Node, schema: OpSchema, count: int, role: str, present: list[bool]) -> None:
    parameters = schema.outputs if role == "output" else schema.inputs
    variadic = bool(parameters) and parameters[-1].option is ParameterOption.VARIADIC
    required = sum(1 for p in parameters if p.option is not ParameterOption.OPTIONAL)
    if count < required or (not variadic and count > len(parameters)):
        expected = (
            f"at least {required}"
            if variadic
            else (f"{required}" if required == len(parameters) else f"{required} to {len(parameters)}")
        )
        names = ", ".join(
            p.name + ("?" if p.option is ParameterOption.OPTIONAL else "...")
            if p.option is not ParameterOption.SINGLE
            else p.name
            for p in parameters
        )
        raise ShapeInferenceError(
            f"{node.describe()}: {schema.describe()} takes {expected} {role}s ({names}), got {count}",
            hint="the model does not match the operator's schema",
        )
    for position, is_present in enumerate(present):
        parameter = parameters[min(position, len(parameters) - 1)]
        if not is_present and parameter.option is not ParameterOption.OPTIONAL:
            raise ShapeInferenceError(f"{node.describe()}: required {role} {parameter.name!r} is missing")


def _parameter_at(parameters: tuple, position: int) -> Any:
    return parameters[min(position, len(parameters) - 1)]


def check_attributes(node: Node, schema: OpSchema) -> None:
    """The node's attributes are an instance of the schema's class, each value of its declared kind."""
    where = f"{node.describe()}: {schema.describe()}"
    if schema.attributes_class is None:
        if node.attributes is not None:
            raise ShapeInferenceError(f"{where} takes no attributes, got {type(node.attributes).__name__}")
        return
    if not isinstance(node.attributes, schema.attributes_class):
        raise ShapeInferenceError(
            f"{where}: attributes are {type(node.attributes).__name__}, expected {schema.attributes_class.__name__}"
        )
    for spec in schema.attributes:
        value = getattr(node.attributes, spec.name)
        if not _value_matches(spec.type, value, spec.enum_class):
            raise ShapeInferenceError(
                f"{where}: attribute {spec.name!r} = {value!r} is not of kind {spec.type.value}",
                hint="construct the attributes with values of the declared types",
            )


def _value_matches(kind: AttributeType, value: Any, enum_class: type[enum.Enum] | None) -> bool:
    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def is_float(v: Any) -> bool:
        return isinstance(v, float | int) and not isinstance(v, bool)

    if kind is AttributeType.INT:
        return is_int(value)
    if kind is AttributeType.BOOL:
        return isinstance(value, bool)
    if kind is AttributeType.FLOAT:
        return is_float(value)
    if kind is AttributeType.STRING:
        return isinstance(value, str)
    if kind is AttributeType.ENUM:
        return enum_class is not None and isinstance(value, enum_class)
    if not isinstance(value, tuple):
        return False
    element = {
        AttributeType.INTS: is_int,
        AttributeType.FLOATS: is_float,
        AttributeType.STRINGS: lambda v: isinstance(v, str),
    }[kind]
    return all(element(v) for v in value)


def infer_node(graph: Graph, node: Node, schema: OpSchema) -> list[TensorType]:
    """The node's output types by its schema; raises ShapeInferenceError naming the node."""
    inputs = graph.node_inputs(node)
    _check_arity(node, schema, len(inputs), "input", [t is not None for t in inputs])
    _check_arity(node, schema, len(node.outputs), "output", [True] * len(node.outputs))
    bound: dict[str, tuple[DType, str]] = {}
    for position, tensor in enumerate(inputs):
        if tensor is None:
            continue
        parameter = _parameter_at(schema.inputs, position)
        constraint = schema.constraint(parameter.type_var)
        if tensor.dtype not in constraint.allowed:
            raise ShapeInferenceError(
                f"{node.describe()}: input {position} ({parameter.name}) {tensor.describe()} is {tensor.dtype.value}; "
                f"{schema.describe()} allows {parameter.type_var} in "
                f"{{{', '.join(d.value for d in constraint.allowed)}}}",
                hint="convert the tensor to a supported dtype, or use an operator that takes it",
            )
        previous = bound.setdefault(parameter.type_var, (tensor.dtype, parameter.name))
        if previous[0] is not tensor.dtype:
            raise ShapeInferenceError(
                f"{node.describe()}: inputs {previous[1]!r} ({previous[0].value}) and {parameter.name!r} "
                f"({tensor.dtype.value}) share type variable {parameter.type_var} and must have one dtype"
            )
    check_attributes(node, schema)
    context = InferenceContext(
        node.describe(), [None if t is None else InputInfo.of(t) for t in inputs], node.attributes
    )
    try:
        result = schema.infer(context)
    except ShapeInferenceError:
        raise
    except Exception as error:
        rule = f"{getattr(schema.infer, '__module__', '?')}.{getattr(schema.infer, '__qualname__', repr(schema.infer))}"
        raise ShapeInferenceError(
            f"{node.describe()}: the inference function of {schema.describe()} failed: {type(error).__name__}: {error}",
            hint=f"fix {rule}",
        ) from error
    if (
        not isinstance(result, list)
        or len(result) != len(node.outputs)
        or not all(isinstance(t, TensorType) for t in result)
    ):
        raise ShapeInferenceError(
            f"{node.describe()}: the inference function of {schema.describe()} returned {result!r}; "
            f"expected a list of {len(node.outputs)} TensorType"
        )
    for position, inferred in enumerate(result):
        parameter = _parameter_at(schema.outputs, position)
        allowed = schema.constraint(parameter.type_var).allowed
        if inferred.dtype not in allowed:
            raise ShapeInferenceError(
                f"{node.describe()}: output {position} ({parameter.name}) inferred as {inferred.dtype.value}, "
                f"outside {parameter.type_var} = {{{', '.join(d.value for d in allowed)}}}"
            )
    return result


def shapes_agree(inferred: tuple[int, ...], actual: tuple[int, ...]) -> bool:
    """Equal, where -1 (known at run time only) on either side matches any size."""
    return len(inferred) == len(actual) and all(
        a == b or a == -1 or b == -1 for a, b in zip(inferred, actual, strict=True)
    )


class OutputMismatchError(ShapeInferenceError):
    """A node's output tensor (as the model stores it) differs from what its schema infers."""


def check_outputs(graph: Graph, node: Node, inferred: list[TensorType], *, update: bool = False) -> None:
    """The node's output tensors agree with `inferred`; with update=True, -1 sizes are filled in."""
    for position, (tensor, expected) in enumerate(zip(graph.node_outputs(node), inferred, strict=True)):
        if tensor.dtype is not expected.dtype or not shapes_agree(expected.shape, tensor.shape):
            raise OutputMismatchError(
                f"{node.describe()}: output {position} {tensor.describe()} differs from what its schema infers, "
                f"{expected.dtype.value}{list(expected.shape)}",
                hint="the model (or a graph rewrite) produced inconsistent shapes; re-export it or fix the rewrite",
            )
        if update and -1 in tensor.shape:
            tensor.shape = tuple(e if a == -1 else a for e, a in zip(expected.shape, tensor.shape, strict=True))
