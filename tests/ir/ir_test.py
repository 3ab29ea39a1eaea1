# SPDX-License-Identifier: Apache-2.0
"""The JSON IR round trip (every real model, every registered op), the operation contract, and constant folding."""

import contextlib
import copy
import dataclasses
import json
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from my_plugin.custom_noop import customize_registry as custom_noop_plugin
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.errors import ModelFormatError, OperatorPluginError
from opbridge.frontends.litert import load_litert_model
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_specs import AttributeSpec, AttributeType, attribute_specs
from opbridge.ir.attribute_types import Activation
from opbridge.ir.attributes import AttributeReader, AttributeWriter
from opbridge.ir.serialize import graph_differences, graph_from_json, graph_to_json
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.definition import OperatorDefinition
from opbridge.ops.operation import Operation, validate_graph
from opbridge.passes.constant_folding import fold_constants
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge.transforms import Transform, apply_transform
from opbridge_signal.plugin import customize_registry as signal_plugin
from opbridge_testing.single_op import GraphBuilder

MODELS = pathlib.Path("../shared_models/models")
REAL_MODELS = [
    "tflm/hello_world_int8.tflite",
    "tflm/micro_speech_quantized.tflite",
    "tflm/audio_preprocessor_int8.tflite",
    "mlperf_tiny/ad01_int8.tflite",
    "mlperf_tiny/kws_ref_model.tflite",
    "mlperf_tiny/pretrainedResnet_quant.tflite",
]
CONTEXT = build_default_registry_context(customizers=[signal_plugin, custom_noop_plugin])


def round_trip(graph: Graph, context: RegistryContext = CONTEXT) -> Graph:
    text = graph_to_json(graph, context.operators)
    loaded = graph_from_json(text, context.operators)
    assert graph_differences(graph, loaded) == []
    assert graph_to_json(loaded, context.operators) == text  # stable: the second write is the same text
    return loaded


@pytest.mark.parametrize("model", REAL_MODELS)
def test_every_real_model_round_trips_and_validates(model: str) -> None:
    graph = load_litert_model(MODELS / model, CONTEXT)
    assert validate_graph(graph, CONTEXT.operators) == len(graph.nodes)  # every node has a schema
    loaded = round_trip(graph)
    reference = ReferenceInterpreter(graph, CONTEXT).run
    again = ReferenceInterpreter(loaded, CONTEXT).run
    inputs = [np.zeros(t.shape, t.dtype.numpy) + 3 for t in graph.input_tensors()]
    for first, second in zip(reference(inputs), again(inputs), strict=True):
        np.testing.assert_array_equal(first, second)


def attribute_values(spec: AttributeSpec) -> st.SearchStrategy:
    # Small positive ints mostly; attribute classes that validate themselves reject the rest.
    ints = st.one_of(st.integers(1, 16), st.integers(-(2**31), 2**31 - 1))
    floats = st.floats(allow_nan=False, width=32)
    kind = spec.type
    if kind is AttributeType.ENUM:
        assert spec.enum_class is not None
        return st.sampled_from(list(spec.enum_class))
    return {
        AttributeType.INT: ints,
        AttributeType.BOOL: st.booleans(),
        AttributeType.FLOAT: floats,
        AttributeType.STRING: st.text(max_size=8),
        AttributeType.INTS: st.lists(ints, max_size=4).map(tuple),
        AttributeType.FLOATS: st.lists(floats, max_size=4).map(tuple),
        AttributeType.STRINGS: st.lists(st.text(max_size=4), max_size=3).map(tuple),
    }[kind]


def drawn_attributes(data: st.DataObject, attributes_class: type | None) -> object:
    if attributes_class is None:
        return None
    values = {s.name: data.draw(attribute_values(s), label=s.name) for s in attribute_specs(attributes_class)}
    try:
        return attributes_class(**values)
    except (ValueError, TypeError):
        reject()  # values the attribute class itself refuses (e.g. a channel count of 0)


OPS_WITH_SCHEMAS = sorted(key for key in CONTEXT.operators if CONTEXT.operators[key].schema is not None)


def test_every_registered_op_has_a_schema() -> None:
    assert sorted(CONTEXT.operators) == OPS_WITH_SCHEMAS


@pytest.mark.parametrize("op_type", OPS_WITH_SCHEMAS)
@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])
@given(data=st.data())
def test_every_op_round_trips_with_drawn_attributes(op_type: str, data: st.DataObject) -> None:
    schema = CONTEXT.operators[op_type].schema
    builder = GraphBuilder()
    inputs = [builder.tensor(f"in{i}", DType.INT8, (1, 2)) for i in range(max(1, len(schema.inputs)))]
    outputs = [builder.tensor(f"out{i}", DType.INT8, (1, 2)) for i in range(len(schema.outputs))]
    attributes = drawn_attributes(data, schema.attributes_class)
    graph = builder.single_node_graph(op_type, inputs, outputs, attributes)
    loaded = round_trip(graph)
    # clone_with_new_inputs keeps the op and every attribute.
    clone = Operation.of(loaded, loaded.nodes[0], CONTEXT.operators).clone_with_new_inputs(list(reversed(inputs)))
    assert (clone.op_type, clone.attributes, clone.inputs) == (op_type, attributes, list(reversed(inputs)))


def test_one_visitor_walk_writes_and_reads_attributes() -> None:
    attributes = Conv2DAttributes(stride_height=2, activation=Activation.RELU6)
    graph = GraphBuilder()
    x = graph.tensor("x", DType.INT8, (1, 4, 4, 1))
    node_graph = graph.single_node_graph("CONV_2D", [x, x], [x], attributes)
    operation = Operation.of(node_graph, node_graph.nodes[0], CONTEXT.operators)
    writer = AttributeWriter()
    assert operation.visit_attributes(writer) == attributes
    assert writer.values["activation"] == "RELU6" and writer.values["stride_height"] == 2
    assert operation.visit_attributes(AttributeReader(writer.values, "here")) == attributes


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["nodes"][0].update(op="NO_SUCH_OP"), "'NO_SUCH_OP' is not registered"),
        (lambda d: d["nodes"][0]["attributes"].update(activation="SIGMOID"), "one of NONE, RELU"),
        (lambda d: d["nodes"][0]["attributes"].update(colour=1), "unknown attributes ['colour']"),
        (lambda d: d["nodes"][0].update(inputs=[0, 99]), "tensor index 99"),
        (lambda d: d["tensors"][0].update(dtype="complex64"), "unknown dtype 'complex64'"),
        (lambda d: d["tensors"][2].update(data=[1, 2, 3]), "data has 3 elements"),
        (lambda d: d.update(version=7), "IR version 7"),
        (lambda d: d["nodes"][0].update(version=3), "version 3"),
    ],
)
def test_damaged_documents_name_what_is_wrong(change: object, message: str) -> None:
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT32, (2,))
    b = builder.tensor("b", DType.INT32, (2,))
    c = builder.tensor("c", DType.INT32, (2,), data=np.array([1, 2], np.int32))
    graph = builder.single_node_graph("ADD", [a, c], [b], AddAttributes())
    document = json.loads(graph_to_json(graph, CONTEXT.operators))
    change(document)  # type: ignore[operator]
    with pytest.raises(ModelFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
        graph_from_json(json.dumps(document), CONTEXT.operators)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_truncated_or_mutated_documents_fail_cleanly(data: st.DataObject) -> None:
    graph = load_litert_model(MODELS / "tflm/hello_world_int8.tflite", CONTEXT)
    text = graph_to_json(graph, CONTEXT.operators).encode()
    if data.draw(st.booleans(), label="truncate"):
        damaged = text[: data.draw(st.integers(0, len(text) - 1))]
    else:
        position = data.draw(st.integers(0, len(text) - 1))
        damaged = text[:position] + bytes([data.draw(st.integers(0, 255))]) + text[position + 1 :]
    with contextlib.suppress(ModelFormatError):
        graph_from_json(damaged.decode("utf-8", errors="replace"), CONTEXT.operators)


def int32_tensor(builder: GraphBuilder, name: str, values: list[int] | None = None) -> int:
    data = None if values is None else np.array(values, np.int32)
    return builder.tensor(name, DType.INT32, (len(values) if values else 3,), data=data)


def constant_chain_graph() -> Graph:
    """x + ((c1 + c2) * c3): the bracket is all constants; the outer ADD reads the graph input."""
    builder = GraphBuilder()
    x = int32_tensor(builder, "x")
    c1, c2, c3 = (int32_tensor(builder, n, v) for n, v in (("c1", [1, 2, 3]), ("c2", [10, 20, 30]), ("c3", [2, -1, 7])))
    s, p, y = (int32_tensor(builder, n) for n in ("s", "p", "y"))
    graph = builder.single_node_graph("ADD", [c1, c2], [s], AddAttributes())
    nodes = [
        graph.nodes[0],
        Node(1, "p", "MUL", [s, c3], [p], AddAttributes()),
        Node(2, "y", "ADD", [x, p], [y], AddAttributes()),
    ]
    return Graph("chain", graph.tensors, nodes, [x], [y])


def test_constant_folding_removes_the_constant_subgraph_and_keeps_the_result() -> None:
    graph = constant_chain_graph()
    folded = fold_constants(graph, CONTEXT.operators)
    assert [n.op_type for n in folded.nodes] == ["ADD"]  # ADD and MUL of constants are gone
    assert len(folded.tensors) == 3  # x, the folded constant, y: c1..c3 and s are dropped
    np.testing.assert_array_equal(folded.tensor(folded.nodes[0].inputs[1]).data, [22, -22, 231])
    validate_graph(folded, CONTEXT.operators)
    x = np.array([5, -7, 100], np.int32)
    expected = ReferenceInterpreter(graph, CONTEXT).run([x])
    np.testing.assert_array_equal(ReferenceInterpreter(folded, CONTEXT).run([x])[0], expected[0])
    round_trip(folded)


def test_constant_folding_runs_as_a_configured_transform() -> None:
    transform = CONTEXT.transforms["fold_constants"]()
    folded = apply_transform(transform, constant_chain_graph(), CONTEXT)
    assert len(folded.nodes) == 1


def test_constant_folding_keeps_stateful_ops_and_graph_outputs() -> None:
    graph = constant_chain_graph()
    stateful = dataclasses.replace(CONTEXT.operators["MUL"], stateful=True)
    operators = {key: CONTEXT.operators[key] for key in CONTEXT.operators} | {"MUL": stateful}
    assert [n.op_type for n in fold_constants(graph, operators).nodes] == ["MUL", "ADD"]
    # A node writing a graph output stays, even when its inputs are constants.
    only_constants = Graph("c", graph.tensors, graph.nodes[:1], [], [graph.nodes[0].outputs[0]])
    assert len(fold_constants(only_constants, CONTEXT.operators).nodes) == 1


class BreakShapes(Transform):
    NAME = "break_shapes"

    def apply(self, graph: Graph) -> Graph:
        broken = copy.deepcopy(graph)
        output = broken.tensor(broken.outputs[0])
        output.shape = (7,)
        return broken


def test_graphs_are_validated_again_after_each_transform() -> None:
    with pytest.raises(OperatorPluginError, match=r"break_shapes.*differs from what its schema infers, int32\[3\]"):
        apply_transform(BreakShapes(), constant_chain_graph(), CONTEXT)


def test_validate_and_infer_types_fills_in_run_time_sizes() -> None:
    graph = constant_chain_graph()
    graph.tensors[graph.outputs[0]] = dataclasses.replace(graph.tensor(graph.outputs[0]), shape=(-1,))
    Operation.of(graph, graph.nodes[2], CONTEXT.operators).validate_and_infer_types()
    assert graph.tensor(graph.outputs[0]).shape == (3,)


def test_an_op_without_schema_cannot_be_written() -> None:
    operators = {"MYSTERY": OperatorDefinition(op_type="MYSTERY", reference=lambda call: [])}
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, (1,))
    graph = builder.single_node_graph("MYSTERY", [x], [builder.tensor("y", DType.INT8, (1,))], None)
    with pytest.raises(ModelFormatError, match=r"has no schema"):
        graph_to_json(graph, operators)
