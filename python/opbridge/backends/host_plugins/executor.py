# SPDX-License-Identifier: Apache-2.0
"""Runs a Graph with native plugin kernels for some nodes and the NumPy reference for the rest."""

from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from opbridge.backends.host_plugins.limits import check_array
from opbridge.backends.host_plugins.plugins import NodeKernel
from opbridge.backends.reference.interpreter import run_reference
from opbridge.errors import InvalidInputError, PluginKernelError, UnsupportedOperatorError
from opbridge.ir import Graph, Tensor
from opbridge.registry_context import OperatorRegistry

Array = npt.NDArray[Any]


def check_input(tensor: Tensor, array: Array, *, any_shape: bool = False) -> None:
    """Exact dtype (no silent casts), rank and fixed dimensions; -1 dimensions are free."""
    if array.dtype != tensor.dtype.numpy:
        raise InvalidInputError(
            f"input {tensor.describe()} got a {array.dtype} array",
            hint=f"pass {tensor.dtype.value}; inputs are never converted",
        )
    check_array(array, f"input {tensor.describe()}")
    fits = any_shape or (
        array.ndim == len(tensor.shape)
        and all(expected < 0 or expected == actual for expected, actual in zip(tensor.shape, array.shape, strict=True))
    )
    if not fits:
        shape = ["?" if dim < 0 else dim for dim in tensor.shape]
        raise InvalidInputError(
            f"input {tensor.describe()} got shape {list(array.shape)}",
            hint=f"pass an array of shape {shape} (? is any size)",
        )


class NativeExecutor:
    """`run(inputs)` runs `graph`: nodes in `kernels` (by node index) natively, the others by reference.

    Graph inputs listed in `unranked_inputs` (tensor indices) accept any shape:
    models may leave an input's rank open, as ONNX allows.
    """

    def __init__(
        self,
        graph: Graph,
        kernels: Mapping[int, NodeKernel],
        registry: OperatorRegistry | None = None,
        *,
        unranked_inputs: Collection[int] = (),
    ) -> None:
        missing = [
            node.describe()
            for node in graph.nodes
            if node.index not in kernels and (registry is None or registry.get(node.op_type) is None)
        ]
        if missing:
            raise UnsupportedOperatorError(
                f"no native kernel or reference implementation for: {', '.join(missing)}",
                hint="load a plugin that provides these ops, or register reference implementations",
            )
        self.graph = graph
        self.kernels = dict(kernels)
        self.registry = registry
        self.unranked_inputs = frozenset(unranked_inputs)

    def run(self, inputs: Sequence[Array]) -> list[Array]:
        graph = self.graph
        expected = graph.input_tensors()
        if len(inputs) != len(expected):
            raise InvalidInputError(
                f"the graph has {len(expected)} input(s), got {len(inputs)}",
                hint="pass one array per graph input, in graph order",
            )
        values: dict[int, Array] = {t.index: t.data for t in graph.tensors if t.data is not None}
        for tensor, array in zip(expected, inputs, strict=True):
            check_input(tensor, array, any_shape=tensor.index in self.unranked_inputs)
            values[tensor.index] = array
        for node in graph.nodes:
            node_values = [values[i] for i in node.inputs if i is not None]
            kernel = self.kernels.get(node.index)
            if kernel is not None:
                results = kernel.compute(node_values)
            else:
                assert self.registry is not None  # checked in __init__
                results = run_reference(self.registry, graph, node, values)
            if len(results) != len(node.outputs):
                raise PluginKernelError(
                    f"{node.describe()} produced {len(results)} outputs, expected {len(node.outputs)}"
                )
            for tensor_index, result in zip(node.outputs, results, strict=True):
                tensor = graph.tensor(tensor_index)
                if result.dtype != tensor.dtype.numpy:
                    raise PluginKernelError(
                        f"{node.describe()} produced {result.dtype} for {tensor.describe()}",
                        hint="the plugin's output type differs from the one the model declares",
                    )
                values[tensor_index] = result
        outputs = [values[i] for i in graph.outputs]
        # An array listed twice would otherwise be shared between two outputs.
        return [
            np.array(output) if any(earlier is output for earlier in outputs[:position]) else output
            for position, output in enumerate(outputs)
        ]
