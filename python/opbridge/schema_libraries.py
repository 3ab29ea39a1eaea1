# SPDX-License-Identifier: Apache-2.0
"""Operator schemas registered from shared libraries (cc/plugin/opbridge_schema.h).

A schema library is a shared library written against opbridge's small C ABI
for schemas: it adds opset domains and, for each operator version, the
inputs and outputs, type constraints, attributes, an inference callback and
optionally a function body. `load_schema_library(path)` loads one by
explicit path and turns every schema into an ordinary `OpSchema`:

- `attributes_class` is a frozen, keyword-only dataclass made from the
  declared attributes (int, float, str, and tuples of those for lists);
- `infer` calls the library's callback through the pybind11 module
  `_opbridge_schemas` and raises `ShapeInferenceError` (via `ctx.fail`) with
  the callback's message when it refuses a node;
- `function_body` is a `FunctionBody` of `FunctionNode`s.

Each schema becomes an `OperatorDefinition` under `schema_op_key(domain,
name, since_version)`; its reference evaluates the function body, or raises
`UnsupportedOperatorError` when the library gives none.
`schema_library_customizer(path)` registers a library's domains and
definitions in a registry context:

    context = build_default_registry_context(customizers=[schema_library_customizer("./libcopy_schemas.so")])

Libraries are trusted native code, loaded by explicit path only (a bare
file name would be searched for, so it is refused); load only libraries you
would link.
"""

import dataclasses
import keyword
import os
from typing import Any

import _opbridge_schemas as _host
import numpy as np

from opbridge.errors import PluginLoadError, UnsupportedOperatorError
from opbridge.ir import DType
from opbridge.ir.onnx_dtypes import ONNX_DTYPES, ONNX_NUMBERS
from opbridge.ops.definition import OperatorDefinition, ReferenceCall, ReferenceImplementation
from opbridge.registry_context import Customizer, RegistryContext
from opbridge.schemas.opsets import RESERVED_DOMAINS, OpsetDomain, schema_op_key
from opbridge.schemas.schema import (
    FormalParameter,
    FunctionBody,
    FunctionNode,
    InferenceContext,
    InferenceFunction,
    OpSchema,
    ParameterOption,
    SchemaError,
    TensorType,
    TypeConstraint,
)

ABI_VERSION: int = _host.ABI_VERSION

_LOAD_HINT = (
    "pass the explicit path of a shared library built for this machine against cc/plugin/opbridge_schema.h "
    "(examples/schema_library/README.md shows one)"
)

# Python types of the ABI's attribute types (lists become tuples: attribute values are immutable).
_ANNOTATIONS: dict[str, Any] = {
    "int": int,
    "float": float,
    "string": str,
    "ints": tuple[int, ...],
    "floats": tuple[float, ...],
    "strings": tuple[str, ...],
}


@dataclasses.dataclass(frozen=True)
class SchemaLibrary:
    """A loaded schema library: its opset domains and one operator definition per schema."""

    path: str  # resolved, absolute
    domains: list[OpsetDomain]
    definitions: list[OperatorDefinition]


def _python_value(kind: str, value: Any) -> Any:
    """An attribute value from the host as the attributes class holds it."""
    if kind == "float":
        return float(value)
    if kind == "floats":
        return tuple(float(item) for item in value)
    if kind in ("ints", "strings"):
        return tuple(value)
    return value


def _dtypes(mask: int) -> tuple[DType, ...]:
    """The dtypes of an OPBRIDGE_DTYPE_BIT set, in ONNX number order (the host refused unknown bits)."""
    return tuple(ONNX_DTYPES[number] for number in sorted(ONNX_DTYPES) if mask >> number & 1)


def _parameters(parameters: list[dict[str, Any]]) -> tuple[FormalParameter, ...]:
    return tuple(FormalParameter(p["name"], p["type_var"], p["doc"], ParameterOption(p["option"])) for p in parameters)


def _attributes_class(name: str, attributes: list[dict[str, Any]], where: str) -> type | None:
    """A frozen, keyword-only dataclass of the declared attributes (None when there are none)."""
    if not attributes:
        return None
    fields = []
    for attribute in attributes:
        if keyword.iskeyword(attribute["name"]):
            raise PluginLoadError(
                f"{where}: attribute {attribute['name']!r} is a Python keyword, which cannot name a field "
                "of the op's attributes class",
                hint="rename the attribute in the library",
            )
        metadata = {"doc": attribute["doc"]}
        if attribute["required"]:
            field = dataclasses.field(metadata=metadata)
        else:
            field = dataclasses.field(default=_python_value(attribute["type"], attribute["default"]), metadata=metadata)
        fields.append((attribute["name"], _ANNOTATIONS[attribute["type"]], field))
    attributes_class = dataclasses.make_dataclass(f"{name}Attributes", fields, frozen=True, kw_only=True)
    attributes_class.__module__ = __name__
    return attributes_class


def _function_body(body: dict[str, Any] | None) -> FunctionBody | None:
    if body is None:
        return None
    nodes = tuple(
        FunctionNode(
            op_type=node["op_type"],
            inputs=tuple(node["inputs"]),
            outputs=tuple(node["outputs"]),
            domain=node["domain"],
            attributes=tuple((name, _python_value(kind, value)) for name, kind, value in node["attributes"]),
        )
        for node in body["nodes"]
    )
    return FunctionBody(nodes, tuple((domain, version) for domain, version in body["opset_imports"]))


def _inference_function(library: Any, index: int, described: dict[str, Any]) -> InferenceFunction:
    """Calls schema `index`'s inference callback with the node's inputs and attributes."""
    kinds = {attribute["name"]: attribute["type"] for attribute in described["attributes"]}
    path = library.path

    def infer(ctx: InferenceContext) -> list[TensorType]:
        inputs: list[tuple[bool, int, list[int]]] = []
        for position, info in enumerate(ctx.inputs):
            if info is None:
                inputs.append((False, 0, []))
                continue
            number = ONNX_NUMBERS.get(info.dtype)
            if number is None:
                raise ctx.fail(f"input {position} is {info.dtype}, which the schema ABI has no number for")
            inputs.append((True, number, [int(size) for size in info.shape]))
        attributes = []
        for name, kind in kinds.items():
            value = getattr(ctx.attributes, name, dataclasses.MISSING)
            if value is not dataclasses.MISSING:  # a missing one gets its default from the host, or is refused
                attributes.append((name, kind, list(value) if isinstance(value, tuple) else value))
        try:
            outputs = library.infer(index, inputs, attributes)
        except _host.InferenceError as error:
            raise ctx.fail(
                str(error), hint=f"the inference callback of schema library {path} refuses this node's inputs"
            ) from None
        except _host.InferenceContractError as error:
            raise ctx.fail(
                str(error), hint="the library's inference callback breaks cc/plugin/opbridge_schema.h's rules: fix it"
            ) from None
        except ValueError as error:
            raise ctx.fail(str(error), hint="the node does not match the operator's schema") from None
        return [TensorType(ONNX_DTYPES[number], tuple(shape)) for number, shape in outputs]

    infer.__qualname__ = f"infer_{described['name']}_v{described['since_version']}"
    return infer


def _no_reference(schema: OpSchema, path: str) -> ReferenceImplementation:
    def no_reference(call: ReferenceCall) -> list[np.ndarray]:
        raise UnsupportedOperatorError(
            f"{call.node.describe()}: {schema.describe()} from schema library {path} has no function body, "
            "so opbridge has no reference implementation to run",
            hint="give the schema a function body in the library (OpbridgeOpSchemaDef.function_body), or register "
            "a reference in a customizer after the library's: context.operators.add(OperatorDefinition("
            f"op_type={schema_op_key(schema.domain, schema.name, schema.since_version)!r}, reference=..., "
            "schema=schema), overwrite=True)",
        )

    no_reference.__qualname__ = f"no_reference_{schema.name}_v{schema.since_version}"
    return no_reference


def _reference(schema: OpSchema, path: str) -> ReferenceImplementation:
    if schema.function_body is None:
        return _no_reference(schema, path)
    # Imported here: function bodies are evaluated with the onnx package, which loading does not need.
    from opbridge.schemas.function_body import function_body_reference

    return function_body_reference(schema)


def _schema(library: Any, index: int, described: dict[str, Any], where: str) -> OpSchema:
    label = f"{where}: schema {described['domain']}.{described['name']} (since version {described['since_version']})"
    try:
        return OpSchema(
            domain=described["domain"],
            name=described["name"],
            since_version=described["since_version"],
            inputs=_parameters(described["inputs"]),
            outputs=_parameters(described["outputs"]),
            type_constraints=tuple(
                TypeConstraint(c["type_var"], _dtypes(c["allowed"]), c["doc"]) for c in described["type_constraints"]
            ),
            infer=_inference_function(library, index, described),
            attributes_class=_attributes_class(described["name"], described["attributes"], label),
            doc=described["doc"],
            function_body=_function_body(described["function_body"]),
        )
    except SchemaError as error:
        raise PluginLoadError(f"{label}: {error.message}", hint=error.hint or _LOAD_HINT) from None


def _tables(library: Any, kind: str, where: str) -> list[dict[str, Any]]:
    """The library's domains or schemas as the host gives them; a string in them that is not UTF-8 text
    (a name or doc the host hands over as bytes it cannot decode) is a PluginLoadError, not a traceback."""
    try:
        return getattr(library, kind)()
    except UnicodeDecodeError as error:
        raise PluginLoadError(
            f"{where}: a string in its {kind} (a name or doc) is not UTF-8 text: {error.reason} at byte "
            f"{error.start} ({error.object[error.start : error.start + 4]!r})",
            hint="write every name and doc string of the library's tables as UTF-8 (C string literals in a "
            "UTF-8 source file are)",
        ) from None


def load_schema_library(path: str | os.PathLike[str]) -> SchemaLibrary:
    """Loads a schema library by explicit path; PluginLoadError says what is wrong and where."""
    try:
        # The host refuses bare names (dlopen would search for them), resolves the path and
        # checks every field the library registers.
        library = _host.SchemaLibrary.open(os.fspath(path))
    except _host.LoadError as error:
        raise PluginLoadError(str(error), hint=_LOAD_HINT) from None
    where = f"schema library {library.path}"
    domains = []
    for described in _tables(library, "domains", where):
        name = described["name"]
        if name in RESERVED_DOMAINS:
            raise PluginLoadError(
                f"{where}: domain {name!r} is reserved for opbridge and ONNX",
                hint="choose a domain of your own, e.g. com.yourcompany.ops",
            )
        try:
            domains.append(OpsetDomain(name, described["min_version"], described["max_version"], described["doc"]))
        except SchemaError as error:
            raise PluginLoadError(f"{where}: {error.message}", hint=error.hint or _LOAD_HINT) from None
    definitions: list[OperatorDefinition] = []
    keys: dict[str, str] = {}
    for index, described in enumerate(_tables(library, "schemas", where)):
        schema = _schema(library, index, described, where)
        key = schema_op_key(schema.domain, schema.name, schema.since_version)
        if key in keys:
            raise PluginLoadError(
                f"{where}: schemas {keys[key]} and {schema.describe()} have the same operator key {key!r}",
                hint="rename one of them (the key is the domain and name in upper case, with _ for other characters)",
            )
        keys[key] = schema.describe()
        reference = _reference(schema, library.path)
        definitions.append(OperatorDefinition(op_type=key, reference=reference, doc=schema.doc, schema=schema))
    return SchemaLibrary(library.path, domains, definitions)


def schema_library_customizer(path: str | os.PathLike[str]) -> Customizer:
    """A customizer (for build_default_registry_context) that registers the library's domains and
    operators. The library is loaded now, so a bad library fails here rather than in the build."""
    library = load_schema_library(path)

    def register_schema_library(context: RegistryContext) -> None:
        for domain in library.domains:
            context.opset_domains.register(domain.name, domain)
        for definition in library.definitions:
            context.operators.add(definition)

    # The origin recorded in the registries (RegistryContext.describe) names the library.
    register_schema_library.__qualname__ = f"schema_library_customizer({library.path!r})"
    return register_schema_library
