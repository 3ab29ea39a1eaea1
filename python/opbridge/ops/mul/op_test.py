"""MUL and SUB with broadcasting (int8; MUL also plain int32): reference == TFLite Micro, C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Graph
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.builtin import build_builtin_registry
from opbridge.testing import strategies
from opbridge.testing.single_op import (
    GraphBuilder,
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

REGISTRY = build_builtin_registry()
CODES = {
    "MUL": (schema.BuiltinOperator.MUL, schema.BuiltinOptions.MulOptions, schema.MulOptionsT),
    "SUB": (schema.BuiltinOperator.SUB, schema.BuiltinOptions.SubOptions, schema.SubOptionsT),
}


def draw_graph(data: st.DataObject, op_type: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(4))
    first_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    second_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    output_shape = tuple(max(a, b) for a, b in zip(first_shape, second_shape, strict=True))
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, first_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    b = builder.tensor("b", DType.INT8, second_shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    y = builder.tensor("y", DType.INT8, output_shape, data.draw(strategies.per_tensor(0.01, 1.0)))
    attributes = AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return builder.single_node_graph(op_type, [a, b], [y], attributes)


@settings(max_examples=25)
@given(st.data(), st.sampled_from(["MUL", "SUB"]))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = draw_graph(data, op_type)
    code, options_type, options_class = CODES[op_type]
    options = options_class()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    check_reference_matches_tflite_micro(graph, REGISTRY, code, 2, options_type, options)


@settings(max_examples=10)
@given(st.data(), st.sampled_from(["MUL", "SUB"]))
def test_c_kernel_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(draw_graph(data, op_type), REGISTRY)


@settings(max_examples=25)
@given(st.data())
def test_int32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(
        data, "MUL", DType.INT32, AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    )
    options = schema.MulOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.MUL, 1, schema.BuiltinOptions.MulOptions, options
    )


@settings(max_examples=10)
@given(st.data())
def test_int32_c_kernel_matches_reference(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(
        data, "MUL", DType.INT32, AddAttributes(activation=data.draw(strategies.ACTIVATIONS))
    )
    check_c_matches_reference(graph, REGISTRY)
