# SPDX-License-Identifier: Apache-2.0
"""Schema checks, opset domains and version selection, and registration rules."""

import dataclasses

import pytest

from opbridge.errors import OperatorPluginError
from opbridge.ir import DType
from opbridge.ops.definition import OperatorDefinition
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain, UnknownSchemaError, schema_op_key
from opbridge.schemas.schema import (
    FormalParameter,
    FunctionBody,
    FunctionNode,
    OpSchema,
    ParameterOption,
    SchemaError,
    TypeConstraint,
    same_as_input,
)

T = (TypeConstraint("T", (DType.FLOAT32, DType.INT8)),)


def schema(name: str = "Op", domain: str = "com.example", version: int = 1, **changes: object) -> OpSchema:
    fields: dict[str, object] = dict(
        domain=domain,
        name=name,
        since_version=version,
        inputs=(FormalParameter("x", "T"),),
        outputs=(FormalParameter("y", "T"),),
        type_constraints=T,
        infer=same_as_input(),
    )
    fields.update(changes)
    return OpSchema(**fields)  # type: ignore[arg-type]


def definition(s: OpSchema) -> OperatorDefinition:
    return OperatorDefinition(schema_op_key(s.domain, s.name, s.since_version), lambda call: [], schema=s)


EXAMPLE_DOMAIN = OpsetDomain("com.example", 1, 3)


def plugin(*schemas: OpSchema, domain: OpsetDomain | None = EXAMPLE_DOMAIN):  # type: ignore[no-untyped-def]
    def customize(context: RegistryContext) -> None:
        if domain is not None:
            context.opset_domains.register(domain.name, domain)
        for s in schemas:
            context.operators.add(definition(s))

    return customize


def test_selection_takes_the_highest_version_not_above_the_import() -> None:
    context = build_default_registry_context(customizers=[plugin(schema(version=1), schema(version=3))])
    schemas = context.schemas()
    assert schemas.select("com.example", "Op", 1)[1] == "COM_EXAMPLE_OP"
    assert schemas.select("com.example", "Op", 2)[1] == "COM_EXAMPLE_OP"
    assert schemas.select("com.example", "Op", 3)[1] == "COM_EXAMPLE_OP_V3"


def test_no_schema_at_the_imported_version_is_an_error_not_a_fallback() -> None:
    context = build_default_registry_context(customizers=[plugin(schema(version=2))])
    with pytest.raises(UnknownSchemaError, match=r"no schema at version 1 .*start at version 2"):
        context.schemas().select("com.example", "Op", 1)
    with pytest.raises(UnknownSchemaError, match=r"covers versions 1..3"):
        context.schemas().select("com.example", "Op", 4)
    with pytest.raises(UnknownSchemaError, match=r"(?s)has no operator 'Opp'.*did you mean 'Op'"):
        context.schemas().select("com.example", "Opp", 2)
    with pytest.raises(UnknownSchemaError, match=r"(?s)'com.exampel' is not registered.*did you mean 'com.example'"):
        context.schemas().select("com.exampel", "Op", 2)


@pytest.mark.parametrize(
    ("customizer", "message"),
    [
        (plugin(schema(), domain=None), "domain 'com.example', which is not registered"),
        (plugin(schema(version=4)), "since_version 4 is outside domain 'com.example' versions 1..3"),
        (plugin(schema(domain="ai.onnx"), domain=OpsetDomain("ai.onnx", 1, 1)), "'ai.onnx' is reserved"),
    ],
)
def test_registration_rules(customizer: object, message: str) -> None:
    with pytest.raises(SchemaError, match=message):
        build_default_registry_context(customizers=[customizer])  # type: ignore[list-item]


def test_a_duplicate_schema_is_rejected() -> None:
    def twice(context: RegistryContext) -> None:
        plugin(schema())(context)
        context.operators.add(dataclasses.replace(definition(schema()), op_type="ANOTHER_KEY"))

    with pytest.raises(SchemaError, match=r"defined twice"):
        build_default_registry_context(customizers=[twice])


def test_the_builtin_domain_cannot_be_replaced_without_allow_override() -> None:
    def take_over(context: RegistryContext) -> None:
        context.opset_domains.register("opbridge", OpsetDomain("opbridge", 1, 9), overwrite=True)

    with pytest.raises(Exception, match=r"replaced the built-in 'opbridge' in opset_domains"):
        build_default_registry_context(customizers=[take_over])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "my op"}, "is not an identifier"),
        ({"since_version": 0}, "since_version must be an int >= 1"),
        ({"inputs": (FormalParameter("x", "U"),)}, "type variable 'U', which has no constraint"),
        (
            {"inputs": (FormalParameter("x", "T", option=ParameterOption.VARIADIC), FormalParameter("z", "T"))},
            "must be the last input",
        ),
        ({"outputs": ()}, "at least one output"),
        ({"type_constraints": (*T, TypeConstraint("T", (DType.INT8,)))}, "constrained twice"),
        ({"attributes_class": dataclasses.make_dataclass("A", [("x", list)])}, "is not supported"),
        ({"function_body": FunctionBody((FunctionNode("Identity", ("q",), ("y",)),))}, "reads 'q' before"),
        ({"function_body": FunctionBody((FunctionNode("Identity", ("x",), ("z",)),))}, "never writes output 'y'"),
    ],
)
def test_malformed_schemas_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(SchemaError, match=message):
        schema(**changes)


def test_opset_domains_check_their_versions() -> None:
    with pytest.raises(SchemaError, match=r"min_version 3 > max_version 1"):
        OpsetDomain("com.example", 3, 1)
    with pytest.raises(SchemaError, match=r"not a dotted identifier"):
        OpsetDomain("com example")


def test_a_failing_customizer_is_still_reported_as_a_plugin_error() -> None:
    def broken(context: RegistryContext) -> None:
        raise RuntimeError("boom")

    with pytest.raises(OperatorPluginError, match=r"boom"):
        build_default_registry_context(customizers=[broken])
