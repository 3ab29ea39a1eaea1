# SPDX-License-Identifier: Apache-2.0
"""Runs a Graph node by node with each operator's NumPy reference implementation."""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from opbridge.errors import InvalidInputError, OpbridgeError, OperatorPluginError, UnsupportedOperatorError
from opbridge.ir import Graph, Node, Tensor
from opbridge.ops.definition import ReferenceCall
from opbridge.registry_context import OperatorRegistry

if TYPE_CHECKING:
    from opbridge.registry_context import RegistryContext

Array = npt.NDArray[Any]


def run_reference(
    registry: OperatorRegistry,
    graph: Graph,
    node: Node,
    values: Mapping[int, Array],
    state: dict[str, Any] | None = None,
) -> list[Array]:
    """One node's outputs from its reference implementation; `values` holds its
    inputs by tensor index, `state` what a stateful operator kept from its last call."""
    definition = registry.get(node.op_type)
    if definition is None:
        raise UnsupportedOperatorError(
            f"no reference implementation for {node.describe()}",
            hint="register the operator (with a reference implementation) in the registry used",
        )
    call = ReferenceCall(
        graph=graph,
        node=node,
        inputs=graph.node_inputs(node),
        outputs=graph.node_outputs(node),
        # A variable tensor's value lives in the state of the operator that reads it.
        values=[
            None if i is None or (graph.tensors[i].is_variable and i not in values) else values[i] for i in node.inputs
        ],
        state=state if state is not None else {},
    )
    try:
        return definition.reference(call)
    except OpbridgeError:
        raise
    except Exception as error:
        # A plugin's reference failing is a plugin bug, reported with the node it ran.
        raise OperatorPluginError(
            f"{node.describe()}: the reference implementation failed: {type(error).__name__}: {error}",
            hint=f"fix {getattr(definition.reference, '__module__', '?')}."
            f"{getattr(definition.reference, '__qualname__', definition.reference)}",
        ) from error


class ReferenceInterpreter:
    """The golden model: `run(inputs)` returns the graph's outputs.

    Stateful operators (e.g. a noise estimate) keep their state from run to
    run, as the emitted module does between <prefix>_run calls; `reset()`
    clears it, as <prefix>_init does. A node whose definition names a
    state_owner shares that node's state (ASSIGN_VARIABLE writes the variable
    its READ_VARIABLE keeps; after a reset the READ gives the initial value).
    """

    def __init__(self, graph: Graph, registry: "OperatorRegistry | RegistryContext") -> None:
        if not isinstance(registry, OperatorRegistry):
            registry = registry.operators
        missing = [node.describe() for node in graph.nodes if registry.get(node.op_type) is None]
        if missing:
            raise UnsupportedOperatorError(
                f"no reference implementation for: {', '.join(missing)}",
                hint="register the operator (with a reference implementation) in the registry used",
            )
        self.graph = graph
        self.registry = registry
        self.node_states: dict[int, dict[str, Any]] = {node.index: {} for node in graph.nodes}
        # A node that shares another's state (ASSIGN_VARIABLE, its variable's READ_VARIABLE) gets that dict.
        for node in graph.nodes:
            definition = registry.get(node.op_type)
            if definition is not None and definition.state_owner is not None:
                self.node_states[node.index] = self.node_states[definition.state_owner(graph, node).index]

    def reset(self) -> None:
        for state in self.node_states.values():
            state.clear()

    def run(self, inputs: Sequence[Array]) -> list[Array]:
        graph = self.graph
        expected = graph.input_tensors()
        if len(inputs) != len(expected):
            raise InvalidInputError(
                f"the model has {len(expected)} input(s), got {len(inputs)}",
                hint="pass one array per model input, in model order",
            )
        values: dict[int, Array] = {}
        for tensor in graph.tensors:
            if tensor.data is not None:
                values[tensor.index] = tensor.data
        for tensor, array in zip(expected, inputs, strict=True):
            values[tensor.index] = check_input(tensor, array)
        for node in graph.nodes:
            results = run_reference(self.registry, graph, node, values, self.node_states[node.index])
            check_reference_results(self.registry, graph, node, results)
            for tensor, result in zip(graph.node_outputs(node), results, strict=True):
                values[tensor.index] = result
        return [values[i] for i in graph.outputs]


def check_input(tensor: Tensor, array: Any, where: str | None = None) -> Array:
    """`array` as model input `tensor` takes it: of its dtype and shape, else an InvalidInputError naming the
    input, after `where` (e.g. "--input x.npy (call 2)") when given."""
    array = np.asarray(array)
    if array.dtype != tensor.dtype.numpy or tuple(array.shape) != tensor.shape:
        prefix = f"{where}: " if where else ""
        raise InvalidInputError(
            f"{prefix}input {tensor.describe()} got {array.dtype}{list(array.shape)}",
            hint=f"pass a {tensor.dtype.value} array of shape {list(tensor.shape)}",
        )
    return array


def _describe_value(value: Any) -> str:
    if isinstance(value, np.ndarray | np.generic):
        return f"{value.dtype}{list(value.shape)}"
    return type(value).__name__


def check_reference_results(registry: OperatorRegistry, graph: Graph, node: Node, results: Any) -> None:
    """A reference returned one array per output, each of the output tensor's dtype and shape (what the
    schema inferred and the model stores); else OperatorPluginError naming the node and the function."""
    outputs = graph.node_outputs(node)
    definition = registry.get(node.op_type)
    reference = getattr(definition, "reference", None)
    function = f"{getattr(reference, '__module__', '?')}.{getattr(reference, '__qualname__', repr(reference))}"
    schema = getattr(definition, "schema", None)
    source = f" (as its schema {schema.describe()} infers)" if schema is not None else ""
    expected = ", ".join(f"{t.dtype.numpy}{list(t.shape)}" for t in outputs)
    if not isinstance(results, list | tuple) or len(results) != len(outputs):
        got = (
            f"{len(results)} value(s) [{', '.join(_describe_value(r) for r in results)}]"
            if isinstance(results, list | tuple)
            else _describe_value(results)
        )
        raise OperatorPluginError(
            f"{node.describe()}: the reference implementation returned {got}; expected a list of "
            f"{len(outputs)} array(s): {expected}{source}",
            hint=f"fix {function}: return one NumPy array per output, in output order",
        )
    for position, (tensor, result) in enumerate(zip(outputs, results, strict=True)):
        if (
            not isinstance(result, np.ndarray | np.generic)
            or result.dtype != tensor.dtype.numpy
            or tuple(result.shape) != tensor.shape
        ):
            raise OperatorPluginError(
                f"{node.describe()}: the reference implementation returned {_describe_value(result)} for output "
                f"{position} {tensor.describe()}; expected {tensor.dtype.numpy}{list(tensor.shape)}{source}",
                hint=f"fix {function}: return an array of the output's dtype and shape "
                f"(e.g. np.asarray(value, dtype=np.{tensor.dtype.numpy}).reshape({tuple(tensor.shape)}))",
            )
