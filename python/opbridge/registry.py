# SPDX-License-Identifier: Apache-2.0
"""The registry context of a conversion, filled: the built-ins, then the plugins' customizers, frozen.

`build_default_registry_context(customizers=[...])` registers the built-ins
(ops/builtin.py), lets each customizer (a plugin's `customize_registry`) add
to them, and freezes the result. Replacing or removing a built-in needs
`allow_override=True`, so a plugin cannot change a built-in by accident.
The registries themselves are described in opbridge/registry_context.py.
"""

from collections.abc import Iterable

from opbridge.aot.builtin_operators import register_builtin_operators
from opbridge.errors import OpbridgeError, OperatorPluginError, nearest
from opbridge.keyed_registry import BUILTIN_ORIGIN, RegistryError
from opbridge.registry_context import Customizer, RegistryContext
from opbridge.schemas.opsets import RESERVED_DOMAINS


def customizer_name(customizer: Customizer) -> str:
    module = getattr(customizer, "__module__", None) or "?"
    name = getattr(customizer, "__qualname__", None) or type(customizer).__name__
    return f"{module}.{name}"


def register_builtins(context: RegistryContext) -> None:
    """The built-in operators, with their parsers, attribute classes, ONNX converters and C emitters."""
    with context.registering_as(BUILTIN_ORIGIN):
        register_builtin_operators(context)


def build_default_registry_context(
    customizers: Iterable[Customizer] = (), *, allow_override: bool = False
) -> RegistryContext:
    """The built-ins, then each customizer in order, frozen.

    Without allow_override, a customizer that replaces or removes a built-in
    fails here, naming the registry, the key and the customizer. So does an
    incomplete plugin operator (check_plugin_operators), before any model is read.
    """
    context = RegistryContext()
    register_builtins(context)
    builtins = {registry.name: {key: registry.get(key) for key in registry} for registry in context.registries()}
    builtin_definitions = [d for d in context.operators.definitions() if d.litert_builtin_code is not None]
    for customizer in customizers:
        if not callable(customizer):
            raise RegistryError(
                f"customizer {customizer!r} is not callable",
                hint="pass functions that take the RegistryContext, e.g. my_plugin.customize_registry",
            )
        name = customizer_name(customizer)
        with context.registering_as(name):
            try:
                customizer(context)
            except OpbridgeError:
                raise
            except Exception as error:
                raise OperatorPluginError(
                    f"customizer {name} failed: {type(error).__name__}: {error}",
                    hint="fix the plugin's customize_registry, or leave the plugin out",
                ) from error
        if allow_override:
            continue
        for registry in context.registries():
            for key, value in builtins[registry.name].items():
                if key not in registry:
                    change = "removed"
                elif registry.get(key) is not value:
                    change = "replaced"
                else:
                    continue
                raise RegistryError(
                    f"customizer {name} {change} the built-in {key!r} in {registry.name}",
                    hint="pass allow_override=True to build_default_registry_context to change built-ins deliberately",
                )
        for definition in builtin_definitions:
            code = definition.litert_builtin_code
            taker = context.operators.by_litert_code(code)
            if taker is not definition:
                raise RegistryError(
                    f"customizer {name} took over the LiteRT builtin code {code} of the built-in "
                    f"{definition.op_type!r} with {taker.op_type if taker else None!r}",
                    hint="pass allow_override=True to build_default_registry_context to change built-ins deliberately",
                )
    context.schemas()  # unknown or reserved domains, versions out of range, duplicate schemas
    check_plugin_operators(context)
    return context.freeze()


def _produced_operator_keys(context: RegistryContext) -> set[str]:
    """The operator keys something can put in a graph: a LiteRT parser, an ONNX converter, an ONNX custom
    domain (its nodes select a schema, and so the definition holding it), or a transform's PRODUCES."""
    keys = set(context.litert_parsers)
    for definition in context.operators.definitions():
        schema = definition.schema
        if schema is not None and schema.domain not in RESERVED_DOMAINS:
            keys.add(definition.op_type)
        # A definition's converters produce it once registered (register_operator_definitions does).
        if any(context.onnx_converters.get(converter.key) is converter for converter in definition.onnx_converters):
            keys.add(definition.op_type)
    for name in context.transforms:
        keys.update(getattr(context.transforms.get(name), "PRODUCES", ()))
    return keys


def check_plugin_operators(context: RegistryContext) -> None:
    """What plugins registered is complete, checked when the context is built rather than mid-conversion:

    - every key a plugin registers in aot_operator_classes or litert_parsers has an OperatorDefinition
      in operators, with a schema and a reference;
    - every OperatorDefinition a plugin adds is something can produce: a LiteRT parser, an ONNX
      converter, a schema in the plugin's own ONNX domain, or a transform that lists it in PRODUCES.
    Built-ins are exempt (all of them pass both checks; tests/plugins/plugin_checks_test.py checks that);
    a built-in key a plugin replaced is checked, as its origin is then the plugin.
    """
    operators = context.operators
    for registry in (context.aot_operator_classes, context.litert_parsers):
        for key in registry:
            origin = registry.origin(key)
            if origin == BUILTIN_ORIGIN:
                continue
            definition = operators.get(key)
            if definition is None:
                missing = "there is no OperatorDefinition of that key in operators"
            else:
                lacks = [name for name in ("schema", "reference") if getattr(definition, name) is None]
                if not lacks:
                    continue
                added_by = operators.origin(key)
                by = "" if added_by == origin else f" (added by {added_by})"
                missing = f"its OperatorDefinition{by} has no {' and no '.join(lacks)}"
            if definition is None:
                suggestion = nearest(key, operators)
                fix = (f"{suggestion} Otherwise, in" if suggestion else "In") + (
                    f" the same customizer, add context.operators.add(OperatorDefinition(op_type={key!r}, "
                    "schema=..., reference=...))"
                )
            else:
                fix = f"pass schema=... and reference=... to OperatorDefinition(op_type={key!r}, ...)"
            raise RegistryError(
                f"{origin} registered {key!r} in {registry.name}, but {missing}",
                hint=f"{fix}: the schema checks every node, the reference runs it on the host "
                "(docs/custom_ops.md, docs/schemas.md)",
            )
    producers = _produced_operator_keys(context)
    for definition in operators.definitions():
        key = definition.op_type
        origin = operators.origin(key)
        if origin == BUILTIN_ORIGIN or key in producers:
            continue
        fix = (
            f"register its parser with context.litert_parsers.register({key!r}, parse), give it a schema in "
            "your own opset domain (ONNX nodes of that domain map onto it), or, when only a transform creates it, "
            f"list {key!r} in that Transform's PRODUCES"
        )
        suggestion = nearest(key, producers)
        raise RegistryError(
            f"{origin} added the OperatorDefinition {key!r}, but nothing produces nodes of it: "
            "no LiteRT parser, ONNX converter, ONNX custom-domain schema or transform has that key",
            hint=f"{suggestion} Otherwise {fix}" if suggestion else fix[0].upper() + fix[1:],
        )


_DEFAULT_CONTEXT: RegistryContext | None = None


def default_registry_context() -> RegistryContext:
    """The built-ins alone (built once; it is frozen, so sharing it is safe)."""
    global _DEFAULT_CONTEXT
    if _DEFAULT_CONTEXT is None:
        _DEFAULT_CONTEXT = build_default_registry_context()
    return _DEFAULT_CONTEXT
