# SPDX-License-Identifier: Apache-2.0
"""The operation contract: what every node offers graph passes.

OpenVINO's op classes (seed 002) each implement validate_and_infer_types,
clone_with_new_inputs, visit_attributes and evaluate. In opbridge an op is
one OperatorDefinition (schema + reference implementation + C emitter), so
the contract is implemented once, here, on a node and its definition:

- validate_and_infer_types: the schema's checks (input count, dtypes per
  type variable, attribute kinds) and its inference function; the result
  must agree with the node's output tensors (sizes known only at run time,
  -1, are filled in). Passes call it again on every node after a rewrite.
- clone_with_new_inputs: the same op with the same attributes on other inputs.
- visit_attributes: one walk over the attributes, for writers and readers.
- evaluate: the reference implementation on given input values; constant
  folding (opbridge.passes.constant_folding) uses it.
"""

import dataclasses
from collections.abc import Sequence
from typing import Any

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import Graph, Node
from opbridge.ir.attributes import AttributeVisitor, visit_attributes
from opbridge.keyed_registry import BUILTIN_ORIGIN
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.registry_context import OperatorLookup
from opbridge.schemas.inference import OutputMismatchError, check_outputs, infer_node
from opbridge.schemas.schema import OpSchema, TensorType


class Operation:
    """One node of a graph, seen through its operator definition."""

    def __init__(self, graph: Graph, node: Node, definition: OperatorDefinition) -> None:
        self.graph = graph
        self.node = node
        self.definition = definition

    @classmethod
    def of(cls, graph: Graph, node: Node, operators: OperatorLookup) -> "Operation":
        definition = operators.get(node.op_type)
        if definition is None:
            raise UnsupportedOperatorError(
                f"{node.describe()}: operator {node.op_type!r} is not registered",
                hint="load the plugin that defines it (--plugin)",
            )
        return cls(graph, node, definition)

    @property
    def schema(self) -> OpSchema:
        schema = self.definition.schema
        if schema is None:
            raise UnsupportedOperatorError(
                f"{self.node.describe()}: operator {self.node.op_type!r} has no schema",
                hint="give its OperatorDefinition a schema (docs/schemas.md)",
            )
        return schema

    def validate_and_infer_types(self, *, update: bool = True) -> list[TensorType]:
        """Checks the node against its schema and its outputs against the inferred types."""
        inferred = infer_node(self.graph, self.node, self.schema)
        check_outputs(self.graph, self.node, inferred, update=update)
        return inferred

    def clone_with_new_inputs(
        self, inputs: Sequence[int | None], *, outputs: Sequence[int] | None = None, index: int | None = None
    ) -> Node:
        """A copy of the node (same op, name and attributes) reading `inputs` (and writing `outputs`)."""
        if len(inputs) != len(self.node.inputs):
            raise ValueError(f"{self.node.describe()} has {len(self.node.inputs)} inputs, got {len(inputs)} new ones")
        return dataclasses.replace(
            self.node,
            index=self.node.index if index is None else index,
            inputs=list(inputs),
            outputs=list(self.node.outputs if outputs is None else outputs),
            attributes=self.visit_attributes(_KeepValues()),
        )

    def visit_attributes(self, visitor: AttributeVisitor) -> Any:
        """Walks the attributes with `visitor`; returns the attributes it rebuilt."""
        return visit_attributes(self.schema.attributes_class, self.node.attributes, visitor)

    def evaluate(self, values: Sequence[Array | None], state: dict[str, Any] | None = None) -> list[Array]:
        """The op's reference implementation on `values` (one per input, None for an omitted one)."""
        call = ReferenceCall(
            graph=self.graph,
            node=self.node,
            inputs=self.graph.node_inputs(self.node),
            outputs=self.graph.node_outputs(self.node),
            values=list(values),
            state={} if state is None else state,
        )
        return self.definition.reference(call)


class _KeepValues:
    def on_attribute(self, spec: Any, value: Any) -> Any:
        return value


def validate_graph(graph: Graph, operators: OperatorLookup) -> int:
    """validate_and_infer_types on every node whose op has a schema; returns how many were checked.

    Nodes of ops registered without a schema (plugins written before schemas
    existed) are left to their own checks at resolve time. When a plugin's
    operator infers other outputs than the model stores, the hint names the
    plugin's inference function rather than blaming the model.
    """
    checked = 0
    for node in graph.nodes:
        definition = operators.get(node.op_type)
        if definition is None or definition.schema is None:
            continue
        try:
            Operation(graph, node, definition).validate_and_infer_types()
        except OutputMismatchError as error:
            origin = operators.origin(node.op_type) if hasattr(operators, "origin") else BUILTIN_ORIGIN
            if origin == BUILTIN_ORIGIN:
                raise
            infer = definition.schema.infer
            name = f"{getattr(infer, '__module__', '?')}.{getattr(infer, '__qualname__', repr(infer))}"
            raise OutputMismatchError(
                error.message,
                hint=f"{node.op_type} is a plugin's operator ({origin}): its schema {definition.schema.describe()} "
                f"infers with {name}; fix that inference function (OpSchema(infer=...)) so it gives the outputs "
                "the model stores",
            ) from None
        checked += 1
    return checked
