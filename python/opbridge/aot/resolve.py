# SPDX-License-Identifier: Apache-2.0
"""Resolution: one AotOperator per node, with its code-generation settings from the config's rules
(`attributes` in the config and `ATTRIBUTES` on the class: heliaAOT's names).

    operators:
      - type: "*"                 # every operator
        attributes: {code_placement: .itcm_text}
      - type: CUSTOM_GAIN
        attributes: {gain: 3}

Rules apply in order (later ones win). Each rule is checked against the
registry in use: an unknown type, or a key that the operator's ATTRIBUTES
model does not declare, is an error naming the nearest valid one. A "*"
rule's key must be declared by some operator of the model and is applied
to those that declare it; free-form models (`extra="allow"`) take any key
from rules of their own type only. A
required attribute (a field without a default) that no rule sets stops
the conversion with an error naming it.
"""

import dataclasses
from collections.abc import Sequence
from typing import Any

import pydantic

from opbridge.aot.operators import AotOperator
from opbridge.errors import (
    ConfigError,
    OpbridgeError,
    OperatorPluginError,
    UnsupportedOperatorError,
    UnsupportedTensorError,
    nearest,
)
from opbridge.ir import DType, Graph
from opbridge.ops.definition import OperatorDefinition
from opbridge.registry_context import RegistryContext

ANY_TYPE = "*"
# Keys that older tools took and opbridge deliberately does not.
REMOVED_KEYS = {
    "scratch_placement": "scratch is planned in the arena with the activations; there is nothing to place",
}


class OperatorResolveError(OpbridgeError):
    """An operator class rejected a node (its on_resolve raised), or reported bad memory needs."""


class OperatorRule(pydantic.BaseModel):
    """One entry of `operators:` in a conversion config."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    type: str
    attributes: dict[str, Any] = pydantic.Field(default_factory=dict)


def setting_fields(settings_class: type) -> list[str]:
    """The keys a class of code-generation settings (an operator class's ATTRIBUTES) declares."""
    if dataclasses.is_dataclass(settings_class):
        return [field.name for field in dataclasses.fields(settings_class)]
    fields = getattr(settings_class, "model_fields", None)
    return list(fields) if fields is not None else []


def takes_free_form_keys(settings_class: type) -> bool:
    config = getattr(settings_class, "__pydantic_config__", None) or getattr(settings_class, "model_config", {})
    return config.get("extra") == "allow"


def _nearest_hint(key: str, valid: Sequence[str], what: str) -> str:
    return nearest(key, valid) or f"valid {what}: {', '.join(sorted(valid)) or 'none'}"


def check_rules(rules: Sequence[OperatorRule], classes: dict[str, type], reached_types: set[str]) -> None:
    """Rejects unknown types and keys, naming the nearest valid one."""
    for position, rule in enumerate(rules):
        where = f"operators[{position}]"
        if rule.type != ANY_TYPE and rule.type not in classes:
            raise ConfigError(
                f"{where}: unknown operator type {rule.type!r}",
                hint=_nearest_hint(rule.type, [*classes, ANY_TYPE], "types"),
            )
        targets = [classes[rule.type]] if rule.type != ANY_TYPE else [classes[t] for t in sorted(reached_types)]
        for key in rule.attributes:
            if key in REMOVED_KEYS:
                raise ConfigError(f"{where}: attribute {key!r} was removed", hint=REMOVED_KEYS[key])
            declared = any(key in setting_fields(c.ATTRIBUTES) for c in targets)
            # A "*" rule's key must be declared somewhere: a free-form model
            # would otherwise swallow a misspelt key meant for the others.
            free_form = rule.type != ANY_TYPE and takes_free_form_keys(targets[0].ATTRIBUTES)
            if not declared and not free_form:
                valid = sorted({f for c in targets for f in setting_fields(c.ATTRIBUTES)})
                subject = f"operator type {rule.type!r}" if rule.type != ANY_TYPE else "any operator of this model"
                raise ConfigError(
                    f"{where}: {subject} has no attribute {key!r}", hint=_nearest_hint(key, valid, "attributes")
                )


def node_settings(node_type: str, settings_class: type, rules: Sequence[OperatorRule], node_text: str) -> Any:
    """The node's code-generation settings (an ATTRIBUTES instance) from the rules that reach it."""
    fields = setting_fields(settings_class)
    merged: dict[str, Any] = {}
    for rule in rules:
        if rule.type == node_type:
            merged.update(rule.attributes)
        elif rule.type == ANY_TYPE:
            merged.update({k: v for k, v in rule.attributes.items() if k in fields})
    try:
        return settings_class(**merged)
    except pydantic.ValidationError as error:
        problems = []
        for entry in error.errors():
            location = ".".join(map(str, entry["loc"])) or "attributes"
            if entry["type"] == "missing" or "required" in entry["msg"].lower():
                problems.append(f"required attribute {location!r} is not set by any operators rule")
            else:
                problems.append(f"attribute {location!r}: {entry['msg']}")
        raise ConfigError(
            f"{node_text}: " + "; ".join(problems),
            hint=f"add it under operators: [{{type: {node_type}, attributes: {{...}}}}] in the config",
        ) from None
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{node_text}: invalid attributes: {error}", hint="check the operators rules") from None


@dataclasses.dataclass
class ResolvedGraph:
    operators: list[AotOperator]  # one per node in schedule order
    scratch_bytes: dict[int, int]
    persistent_bytes: dict[int, int]
    # Nodes whose C may write output 0 over an input (AotOperator.in_place).
    in_place_nodes: set[int] = dataclasses.field(default_factory=set)
    # Scratch those nodes need only when they do run in place (AotOperator.in_place_scratch_bytes).
    in_place_scratch_bytes: dict[int, int] = dataclasses.field(default_factory=dict)
    # Nodes whose inputs are slices of their output, with each input's byte offset (AotOperator.output_slices).
    output_slices: dict[int, list[int]] = dataclasses.field(default_factory=dict)
    # Nodes whose output 0 is a view of input 0 (AotOperator.aliases_input: RESHAPE, SQUEEZE).
    aliasing_nodes: set[int] = dataclasses.field(default_factory=set)

    def memory_arguments(self, in_place: bool = True) -> dict[str, Any]:
        """The nodes' memory needs as plan_memory's and arena_lower_bound's keyword arguments;
        `in_place=False` (ConvertArgs.in_place) leaves out in-place outputs and concatenation slices."""
        return {
            "scratch_bytes": self.scratch_bytes,
            "persistent_bytes": self.persistent_bytes,
            "in_place_nodes": self.in_place_nodes if in_place else (),
            "in_place_scratch_bytes": self.in_place_scratch_bytes,
            "output_slices": self.output_slices if in_place else None,
            "aliasing_nodes": self.aliasing_nodes,
        }


def refuse_float64(graph: Graph) -> None:
    """Emitted C has no float64 kernels: a float64 tensor stops the conversion before any C is written,
    named with the first node that reads or writes it (the host reference runs such models)."""
    for node in graph.nodes:
        for index in (*node.inputs, *node.outputs):
            if index is not None and graph.tensor(index).dtype is DType.FLOAT64:
                raise UnsupportedTensorError(
                    f"{node.describe()}: {graph.tensor(index).describe()} is float64; `opbridge run` computes "
                    "float64 in the host reference, but emitted C (Cortex-M) has no float64 kernels",
                    hint="export the model in float32 (torch: model.float(); ONNX: cast the inputs and weights)",
                )


def _own_definition(context: RegistryContext, key: str) -> OperatorDefinition | None:
    """The definition whose facts (NodeMemory, MACs) a plugin's AotOperator class answers with by default:
    the key's definition when the same plugin (or the built-ins) registered both. A plugin class that
    emits a built-in operator with C of its own gets none: the built-in's in-place or scratch facts
    describe the built-in's kernel, not its C."""
    definition = context.operators.get(key)
    if definition is None or context.operators.origin(key) != context.aot_operator_classes.origin(key):
        return None
    return definition


def resolve_operators(
    graph: Graph, context: RegistryContext, prefix: str, rules: Sequence[OperatorRule] = ()
) -> ResolvedGraph:
    """Instantiates each node's operator class, runs its admission checks and collects its memory needs."""
    classes = dict(context.aot_operator_classes.items())
    missing = [node.describe() for node in graph.nodes if node.op_type not in classes]
    if missing:
        raise UnsupportedOperatorError(
            f"no C emitter (aot_operator_classes) for: {', '.join(missing)}",
            hint="register an AotOperator class for the key with a plugin, or run the model on the host backends",
        )
    check_rules(rules, classes, {node.op_type for node in graph.nodes})
    refuse_float64(graph)
    resolved = ResolvedGraph([], {}, {})
    for node in graph.nodes:
        operator_class = classes[node.op_type]
        declared_type = getattr(operator_class, "TYPE", "")
        if declared_type and declared_type != node.op_type:
            raise OperatorPluginError(
                f"{node.describe()}: {operator_class.__qualname__} is registered for {node.op_type} "
                f"but its TYPE is {declared_type!r}",
                hint="register the class under its TYPE (the same key as the parser's)",
            )
        settings = node_settings(node.op_type, operator_class.ATTRIBUTES, rules, node.describe())
        try:
            operator = operator_class(node, graph, prefix, settings)
            if getattr(operator, "definition", None) is None:
                operator.definition = _own_definition(context, node.op_type)
            operator.on_resolve()
            scratch, persistent = operator.scratch_bytes(), operator.persistent_bytes()
        except OpbridgeError:
            raise
        except Exception as error:
            raise OperatorResolveError(
                f"{node.describe()}: {error}",
                hint=f"rejected by {operator_class.__module__}.{operator_class.__qualname__}",
            ) from error
        if persistent and not operator.has_init:
            raise OperatorPluginError(
                f"{node.describe()}: {operator_class.__qualname__} asks for {persistent} persistent bytes "
                "but has no init to reset them",
                hint="set has_init = True and reset the state in <prefix>_<name>_init",
            )
        for what, value in (("scratch_bytes", scratch), ("persistent_bytes", persistent)):
            if not isinstance(value, int) or value < 0:
                raise OperatorPluginError(
                    f"{node.describe()}: {operator_class.__qualname__}.{what}() returned {value!r}",
                    hint="return a byte count, an int >= 0",
                )
        resolved.operators.append(operator)
        if scratch:
            resolved.scratch_bytes[node.index] = scratch
        if persistent:
            resolved.persistent_bytes[node.index] = persistent
        if operator.in_place() is True:
            resolved.in_place_nodes.add(node.index)
            in_place_scratch = operator.in_place_scratch_bytes()
            if not isinstance(in_place_scratch, int) or in_place_scratch < 0:
                raise OperatorPluginError(
                    f"{node.describe()}: {operator_class.__qualname__}.in_place_scratch_bytes() returned "
                    f"{in_place_scratch!r}",
                    hint="return a byte count, an int >= 0",
                )
            if in_place_scratch:
                resolved.in_place_scratch_bytes[node.index] = in_place_scratch
        slices = operator.output_slices()
        if slices is not None:
            if len(slices) != len(node.inputs) or not all(isinstance(s, int) and s >= 0 for s in slices):
                raise OperatorPluginError(
                    f"{node.describe()}: {operator_class.__qualname__}.output_slices() returned {slices!r}",
                    hint="return one byte offset (an int >= 0) per input, or None",
                )
            resolved.output_slices[node.index] = list(slices)
        if operator.aliases_input() is True:
            resolved.aliasing_nodes.add(node.index)
    check_variable_tensors(graph, resolved)
    return resolved


def check_variable_tensors(graph: Graph, resolved: ResolvedGraph) -> None:
    """A variable tensor (LiteRT's is_variable: SVDF's state) gets no arena buffer: exactly one node may
    read it, and that node must keep it in its persistent state."""
    for tensor in graph.tensors:
        if not tensor.is_variable:
            continue
        readers = [node for node in graph.nodes if tensor.index in node.inputs]
        writers = [node for node in graph.nodes if tensor.index in node.outputs]
        keepers = [node for node in readers if resolved.persistent_bytes.get(node.index)]
        if writers or tensor.index in graph.outputs or len(readers) != 1 or len(keepers) != 1:
            names = ", ".join(node.describe() for node in [*readers, *writers]) or "no node"
            raise UnsupportedTensorError(
                f"{tensor.describe()} is a variable tensor read or written by {names}; opbridge's C keeps a "
                "variable tensor only as the state of the one operator that reads it (SVDF's activation state)",
                hint="give each stateful operator its own variable tensor, and keep variable tensors out of "
                "the graph outputs; run other uses on the host reference",
            )
