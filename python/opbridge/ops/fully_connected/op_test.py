"""FULLY_CONNECTED on drawn shapes and quantization: reference == TFLite Micro, C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

REGISTRY = build_builtin_registry()


def draw_graph(data: st.DataObject) -> Graph:
    batches, depth, units = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 40)), data.draw(st.integers(1, 20))
    input_q = data.draw(strategies.per_tensor())
    filter_q = data.draw(strategies.symmetric_filter(units, axis=0))
    output_q = data.draw(strategies.per_tensor(0.01, 2.0))
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (batches, depth), input_q)
    w = builder.tensor("filter", DType.INT8, (units, depth), filter_q, strategies.int8_array(data.draw, (units, depth)))
    b = None
    if data.draw(st.booleans()):
        bias_q = Quantization(
            tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis
        )
        b = builder.tensor("bias", DType.INT32, (units,), bias_q, strategies.bias_array(data.draw, units))
    y = builder.tensor("output", DType.INT8, (batches, units), output_q)
    attributes = FullyConnectedAttributes(activation=data.draw(strategies.ACTIVATIONS))
    return builder.single_node_graph("FULLY_CONNECTED", [x, w, b], [y], attributes)


def litert_options(graph: Graph) -> schema.FullyConnectedOptionsT:
    options = schema.FullyConnectedOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    return options


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.FULLY_CONNECTED, 4,
        schema.BuiltinOptions.FullyConnectedOptions, litert_options(graph),
    )  # fmt: skip


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY)
