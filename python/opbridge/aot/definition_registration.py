# SPDX-License-Identifier: Apache-2.0
"""Operator definitions into a RegistryContext: each one's LiteRT parser, attribute class, ONNX and torch
converters and C emitter class. Knows no operator: the built-ins (aot/builtin_operators.py), a plugin's
definitions and a test's few operators are registered the same way."""

import typing
from collections.abc import Iterable
from typing import Any

from opbridge.aot.operators import builtin_aot_operator_class
from opbridge.frontends.litert.nodes import LiteRTNode
from opbridge.keyed_registry import BUILTIN_ORIGIN
from opbridge.ops.definition import OperatorDefinition
from opbridge.passes.constant_folding import FoldConstants
from opbridge.passes.pipeline import GRAPH_PASSES
from opbridge.registry_context import OperatorRegistry, RegistryContext
from opbridge.schemas.opsets import BUILTIN_DOMAIN, OpsetDomain


def builtin_litert_parser(definition: OperatorDefinition) -> Any:
    """A litert_parsers entry for a built-in: its options parser on the node's tflite.Operator."""
    parse = definition.parse_litert_options

    def parse_builtin(node: LiteRTNode) -> Any:
        return None if parse is None else parse(node.operator)

    parse_builtin.__qualname__ = f"parse_{definition.op_type.lower()}"
    return parse_builtin


def attributes_class_of(definition: OperatorDefinition) -> type | None:
    """The attributes class `parse_litert_options` is annotated to return, if any."""
    if definition.parse_litert_options is None:
        return None
    try:
        returned = typing.get_type_hints(definition.parse_litert_options).get("return")
    except (NameError, TypeError):
        return None
    return returned if isinstance(returned, type) else None


def register_operator_definitions(context: RegistryContext, definitions: Iterable[OperatorDefinition]) -> None:
    """Each definition with its parser (LiteRT builtins), attribute class, ONNX converters and C emitter class."""
    for definition in definitions:
        key = definition.op_type
        context.operators.add(definition)
        if definition.litert_builtin_code is not None:
            context.litert_parsers.register(key, builtin_litert_parser(definition))
        attributes_class = attributes_class_of(definition)
        if attributes_class is not None:
            context.air_options.register(key, attributes_class)
        for converter in definition.onnx_converters:
            context.onnx_converters.register(converter.key, converter)
        for torch_converter in definition.torch_converters:
            context.torch_converters.register(torch_converter.key, torch_converter)
        if definition.emit_c is not None:
            context.aot_operator_classes.register(key, builtin_aot_operator_class(definition))


def register_builtin_definitions(context: RegistryContext, definitions: Iterable[OperatorDefinition]) -> None:
    """`definitions` as built-ins: the built-in opset domain, each definition, constant folding and the
    graph passes (passes/pipeline.py).
    The built-in registry passes every operator folder's (aot/builtin_operators.py); a test, its own few."""
    context.opset_domains.register(BUILTIN_DOMAIN, OpsetDomain(BUILTIN_DOMAIN, 1, 1, "opbridge's built-in operators"))
    register_operator_definitions(context, definitions)
    context.transforms.register(FoldConstants.NAME, FoldConstants)
    for graph_pass in GRAPH_PASSES:
        context.transforms.register(graph_pass.NAME, graph_pass)


def as_registry_context(registry: RegistryContext | OperatorRegistry) -> RegistryContext:
    """A context for APIs that take either: an OperatorRegistry gets its
    definitions' parsers and built-in emitter classes (for tests of single operators)."""
    if isinstance(registry, RegistryContext):
        return registry
    context = RegistryContext()
    with context.registering_as(BUILTIN_ORIGIN):
        context.opset_domains.register(BUILTIN_DOMAIN, OpsetDomain(BUILTIN_DOMAIN, 1, 1))
        register_operator_definitions(context, registry.definitions())
    return context.freeze()
