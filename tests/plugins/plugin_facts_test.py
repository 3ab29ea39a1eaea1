# SPDX-License-Identifier: Apache-2.0
"""A plugin operator declares its facts (docs/adding_an_operator.md, "Operator facts") the way a
built-in does, and the passes, the planner and the analysis read them from its OperatorDefinition:
the example SoftClip plugin (examples/soft_clip) says it is element-wise, so the transposes an ONNX
model puts around it cancel; the same op declared layout-dependent keeps them."""

import dataclasses

import numpy as np
from opbridge.aot.operators import NodeCodeOperator
from opbridge.aot.resolve import resolve_operators
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.ir import DType, Graph, Node
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.definition import Layout, NodeMemory
from opbridge.passes.transposes import cancel_transposes
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge_testing.single_op import GraphBuilder
from soft_clip.plugin import KEY, Attributes
from soft_clip.plugin import customize_registry as soft_clip

NCHW = (1, 3, 4, 5)
TO_NHWC, TO_NCHW = (0, 2, 3, 1), (0, 3, 1, 2)


def context_with(**facts: object) -> RegistryContext:
    """The built-ins and SoftClip, its definition's facts replaced by `facts` (in the plugin's own customizer,
    as the plugin would declare them)."""

    def soft_clip_with_facts(context: RegistryContext) -> None:
        soft_clip(context)
        definition = context.operators.get(KEY)
        assert definition is not None
        context.operators.add(dataclasses.replace(definition, **facts), overwrite=True)

    return build_default_registry_context(customizers=[soft_clip_with_facts])


def wrapped_graph() -> Graph:
    """x -> TRANSPOSE to NHWC -> SOFT_CLIP -> TRANSPOSE back -> ABS -> y (the shape of an ONNX import)."""
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, NCHW)
    perms = [
        builder.tensor(f"perm{i}", DType.INT32, (4,), data=np.array(p, np.int32))
        for i, p in enumerate((TO_NHWC, TO_NCHW))
    ]
    nhwc = tuple(NCHW[i] for i in TO_NHWC)
    a = builder.tensor("a", DType.FLOAT32, nhwc)
    b = builder.tensor("b", DType.FLOAT32, nhwc)
    c = builder.tensor("c", DType.FLOAT32, NCHW)
    y = builder.tensor("y", DType.FLOAT32, NCHW)
    nodes = [
        Node(0, "to_nhwc", "TRANSPOSE", [x, perms[0]], [a]),
        Node(1, "clip", KEY, [a], [b], Attributes(limit=2.0)),
        Node(2, "to_nchw", "TRANSPOSE", [b, perms[1]], [c]),
        Node(3, "abs", "ABS", [c], [y]),
    ]
    return Graph("wrapped", builder.tensors, nodes, [x], [y])


def run(graph: Graph, context: RegistryContext, x: np.ndarray) -> np.ndarray:
    (y,) = ReferenceInterpreter(graph, context).run([x])
    return y


def test_a_plugin_elementwise_op_runs_without_transposes() -> None:
    context = build_default_registry_context(customizers=[soft_clip])
    assert context.operators.get(KEY).layout is Layout.ELEMENTWISE  # declared by the example plugin
    x = np.linspace(-5, 5, num=int(np.prod(NCHW)), dtype=np.float32).reshape(NCHW)
    expected = run(wrapped_graph(), context, x)
    graph = cancel_transposes(wrapped_graph(), context.operators)
    assert [node.op_type for node in graph.nodes] == [KEY, "ABS"]
    np.testing.assert_array_equal(run(graph, context, x), expected)


def test_a_layout_dependent_plugin_op_keeps_its_transposes() -> None:
    context = context_with(layout=Layout.LAYOUT_DEPENDENT)
    graph = cancel_transposes(wrapped_graph(), context.operators)
    # The op stays between its transposes (ABS, element-wise, may run after the second one or before it).
    ops = [node.op_type for node in graph.nodes]
    assert ops.count("TRANSPOSE") == 2 and ops.index("TRANSPOSE") < ops.index(KEY) < ops.index("TRANSPOSE", 1), ops


def test_a_plugin_class_answers_with_its_definition_memory_and_macs() -> None:
    """SoftClip's operator class (a PortableKernelOperator) overrides no memory hook: the planner and
    the analysis see what its OperatorDefinition declares."""
    context = context_with(
        memory=NodeMemory(scratch=lambda graph, node: 48, in_place=True),
        macs=lambda graph, node, shape: 7 * int(np.prod(shape)),
    )
    graph = wrapped_graph()
    resolved = resolve_operators(graph, context, "facts")
    assert resolved.scratch_bytes == {1: 48}
    assert 1 in resolved.in_place_nodes
    clip = resolved.operators[1]
    assert clip.macs() == 7 * int(np.prod(NCHW))
    assert clip.macs((1, 2, 2, 3)) == 7 * 12


def test_a_plugin_class_emitting_a_built_in_gets_none_of_its_kernel_facts() -> None:
    """ADD's kernel runs in place; a plugin's own C for ADD says nothing of the kind unless its class does."""

    class OwnAdd(NodeCodeOperator):
        TYPE = "ADD"

    def own_add(context: RegistryContext) -> None:
        context.aot_operator_classes.register("ADD", OwnAdd, overwrite=True)

    context = build_default_registry_context(customizers=[own_add], allow_override=True)
    builder = GraphBuilder()
    x, y, z = (builder.tensor(name, DType.FLOAT32, (8,)) for name in "xyz")
    graph = builder.single_node_graph("ADD", [x, y], [z], AddAttributes())
    assert resolve_operators(graph, build_default_registry_context(), "add").in_place_nodes == {0}
    resolved = resolve_operators(graph, context, "add")
    assert resolved.in_place_nodes == set()
    assert resolved.operators[0].definition is None
