# SPDX-License-Identifier: Apache-2.0
"""torch -> ONNX export of the generated torch ops, as nodes of their operators' own ONNX domains.

torch's dynamo exporter (`torch.onnx.export(..., dynamo=True)`) knows nothing of a plugin's
torch op; `custom_translation_table(context)` gives it, for each TorchOp whose schema is in a
custom domain, a function that emits the one node `domain.Name` with the op's attributes. opbridge's
ONNX frontend then reads that node back through the same schema, so a model keeps the operator
on the way torch -> ONNX -> opbridge:

    onnx_program = torch.onnx.export(model, args, dynamo=True,
                                     custom_translation_table=custom_translation_table(context))

Nothing else is needed: the exporter imports each domain at the version of the nodes emitted in it,
and every node of a domain is emitted at `custom_opsets(context)[domain]` (the highest since_version
of the domain's TorchOps), so the model imports one version at which each node selects its own
schema. torch.onnx.export's `custom_opsets` argument is ignored with dynamo=True (and deprecated).
"""

import dataclasses
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from opbridge.errors import OperatorPluginError
from opbridge.frontends.torch.library import TorchArgument, bind_arguments, define_torch_ops, torch_arguments
from opbridge.ir.attribute_specs import AttributeType
from opbridge.ops.definition import OperatorDefinition
from opbridge.schemas.onnx_attributes import onnx_attribute_value
from opbridge.schemas.opsets import RESERVED_DOMAINS
from opbridge.schemas.schema import OpSchema, ParameterOption

if TYPE_CHECKING:
    import torch

    from opbridge.registry_context import RegistryContext

# Python annotations of attribute parameters, from which the exporter reads the ONNX attribute types.
_ANNOTATIONS: dict[AttributeType, Any] = {
    AttributeType.INT: int,
    AttributeType.FLOAT: float,
    AttributeType.BOOL: bool,
    AttributeType.STRING: str,
    AttributeType.INTS: Sequence[int],
    AttributeType.FLOATS: Sequence[float],
}


def _exported_schemas(
    context: "RegistryContext", keys: Sequence[str]
) -> list[tuple[str, OperatorDefinition, OpSchema]]:
    """(operator key, definition, schema) of the TorchOps of `keys` whose schemas are in a custom domain."""
    exported = []
    for key in keys:
        definition = context.operators[context.torch_ops[key].op_type]
        schema = definition.schema
        if schema is not None and schema.domain not in RESERVED_DOMAINS:
            exported.append((key, definition, schema))
    return exported


def custom_opsets(context: "RegistryContext", keys: Sequence[str] | None = None) -> dict[str, int]:
    """The version the exported model imports each custom domain at: the highest since_version of
    the domain's TorchOps (of `keys`, operator keys; default all of context.torch_ops)."""
    versions: dict[str, int] = {}
    for _, _, schema in _exported_schemas(context, list(context.torch_ops) if keys is None else list(keys)):
        versions[schema.domain] = max(versions.get(schema.domain, 0), schema.since_version)
    return versions


def custom_translation_table(
    context: "RegistryContext", ops: "dict[str, torch._ops.OpOverload] | None" = None
) -> "dict[torch._ops.OpOverload, Callable[..., Any]]":
    """For torch.onnx.export(dynamo=True, custom_translation_table=...): each custom-domain TorchOp's
    default overload -> a function emitting its node. `ops` is define_torch_ops' result (by operator
    key); by default every TorchOp of the context is defined and translated. TorchOps of opbridge's or
    ONNX's own domains are left out (they have no node of their own to export)."""
    if ops is None:
        ops = define_torch_ops(context)
    versions = custom_opsets(context, list(ops))
    schemas = context.schemas()
    table = {}
    for key, definition, schema in _exported_schemas(context, list(ops)):
        torch_op = context.torch_ops[key]
        version = versions[schema.domain]
        where = f"TorchOp {torch_op.qualname!r}"
        _, selected = schemas.select(schema.domain, schema.name, version, where)
        if selected != definition.op_type:
            raise OperatorPluginError(
                f"{where}: a model importing {schema.domain!r} at version {version} selects operator "
                f"{selected!r} for {schema.name}, not {definition.op_type!r}",
                hint="export one version of an operator at a time: declare TorchOps of one version per domain",
            )
        table[ops[key]] = _translation(definition, torch_op_arguments(context, key), version)
    return table


def torch_op_arguments(context: "RegistryContext", key: str) -> tuple[TorchArgument, ...]:
    torch_op = context.torch_ops[key]
    return torch_arguments(context.operators[torch_op.op_type], torch_op)


def _translation(
    definition: OperatorDefinition, arguments: tuple[TorchArgument, ...], version: int
) -> Callable[..., Any]:
    """The exporter's function for one op: its torch arguments (ONNX values and Python attribute
    values) -> the outputs of one node of the schema's domain, imported at `version`."""
    import onnxscript

    from opbridge.schemas.onnx_export import onnx_schema

    schema = definition.schema
    assert schema is not None
    # An unregistered onnx schema of the op at the domain's exported version: the exporter's tracer
    # reads the node's signature (and its version, hence the model's opset import) from it.
    node_schema = onnx_schema(dataclasses.replace(schema, since_version=version))
    node_op = onnxscript.values.Op(onnxscript.values.Opset(schema.domain, version), schema.name, node_schema)
    parameters = []
    annotations: dict[str, Any] = {}
    for argument in arguments:
        default = argument.default if argument.has_default else inspect.Parameter.empty
        parameters.append(inspect.Parameter(argument.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
        if argument.spec is not None:
            annotations[argument.name] = _ANNOTATIONS[argument.spec.type]

    def translate(*args: Any, **kwargs: Any) -> Any:
        inputs: list[Any] = []
        attributes: dict[str, Any] = {}
        for argument, value in zip(arguments, bind_arguments(arguments, args, kwargs), strict=True):
            if argument.spec is not None:
                plain = tuple(value) if isinstance(value, list) else value
                attributes[argument.name] = onnx_attribute_value(argument.spec, plain)
            elif argument.parameter is not None and argument.parameter.option is ParameterOption.VARIADIC:
                inputs.extend(value)
            else:
                inputs.append(value)
        return node_op(*inputs, **attributes)

    translate.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    translate.__annotations__ = annotations
    translate.__name__ = translate.__qualname__ = f"{schema.domain.replace('.', '_')}_{schema.name}"
    return translate
