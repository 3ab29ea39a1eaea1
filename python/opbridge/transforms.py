# SPDX-License-Identifier: Apache-2.0
"""Graph rewrites that plugins register and conversions select by name.

    class FuseThing(Transform):
        NAME = "fuse_thing"
        OPTIONS = FuseThingOptions  # a pydantic model or dataclass; None: takes no options
        PRODUCES = ("FUSED_THING",)  # operator keys only this transform creates (optional)

        def apply(self, graph: Graph) -> Graph: ...

A config selects transforms, in order, with
`transforms: [{name: fuse_thing, options: {...}}]`; options are validated
against OPTIONS before the transform runs, and the rewritten graph is
checked (schedule order, every read written first) after it.
"""

import dataclasses
from typing import Any, ClassVar

import pydantic

from opbridge.errors import ConfigError, OpbridgeError, OperatorPluginError, nearest
from opbridge.ir import Graph
from opbridge.ops.operation import validate_graph
from opbridge.registry_context import RegistryContext


class TransformConfigError(ConfigError):
    """A transform named in a config is unknown, or its options are invalid."""


class Transform:
    """A graph rewrite. Subclasses set NAME and OPTIONS and implement apply()."""

    NAME: ClassVar[str] = ""
    OPTIONS: ClassVar[type | None] = None
    # Operator keys apply() may create that nothing else produces (no parser, converter or ONNX domain):
    # an OperatorDefinition a plugin adds must be produced by something, or the registry context refuses it.
    PRODUCES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, options: Any = None) -> None:
        self.options = options
        # The conversion's RegistryContext, set by apply_transform (for passes that evaluate ops).
        self.context: RegistryContext | None = None

    def apply(self, graph: Graph) -> Graph:
        raise NotImplementedError(f"{type(self).__name__} must implement apply()")


def make_options(transform_class: type[Transform], raw: dict[str, Any] | None) -> Any:
    """The transform's typed options from a config mapping; errors name the transform and the key."""
    name = transform_class.NAME
    options_class = transform_class.OPTIONS
    if options_class is None:
        if raw:
            raise TransformConfigError(
                f"transform {name!r} takes no options, got {sorted(raw)}", hint="remove its options"
            )
        return None
    raw = dict(raw or {})
    # Unknown keys are errors for every kind of OPTIONS class (pydantic would drop them silently).
    if dataclasses.is_dataclass(options_class):
        valid = [field.name for field in dataclasses.fields(options_class)]
    else:
        valid = list(getattr(options_class, "model_fields", {}))
    for key in raw:
        if key not in valid:
            raise TransformConfigError(
                f"transform {name!r} has no option {key!r}",
                hint=nearest(key, valid) or f"its options: {', '.join(valid) or 'none'}",
            )
    is_pydantic = hasattr(options_class, "__pydantic_fields__") or hasattr(options_class, "model_fields")
    if not is_pydantic:
        try:
            return options_class(**raw)
        except (TypeError, ValueError) as error:
            raise TransformConfigError(f"transform {name!r}: {error}", hint="see its OPTIONS class") from None
    try:
        return pydantic.TypeAdapter(options_class).validate_python(raw)
    except pydantic.ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or name}: {e['msg']}" for e in error.errors())
        raise TransformConfigError(f"transform {name!r} options: {problems}", hint="see its OPTIONS class") from None


def apply_transform(transform: Transform, graph: Graph, context: RegistryContext | None = None) -> Graph:
    """Runs `transform`; with a context, every node with a schema is validated again afterwards."""
    if context is not None:
        transform.context = context
    try:
        result = transform.apply(graph)
    except OpbridgeError:
        raise
    except Exception as error:
        raise OperatorPluginError(
            f"transform {transform.NAME!r} failed: {type(error).__name__}: {error}",
            hint=f"fix {type(transform).__module__}.{type(transform).__qualname__}.apply",
        ) from error
    if not isinstance(result, Graph):
        raise OperatorPluginError(
            f"transform {transform.NAME!r} returned {type(result).__name__}, not a Graph",
            hint="apply() returns the rewritten graph",
        )
    try:
        result.check_schedule()
    except ValueError as error:
        raise OperatorPluginError(f"transform {transform.NAME!r} broke the graph: {error}") from None
    if context is not None:
        try:
            validate_graph(result, context.operators)
        except OpbridgeError as error:
            raise OperatorPluginError(
                f"transform {transform.NAME!r} left a node that breaks its schema: {error.message}", hint=error.hint
            ) from None
    return result
