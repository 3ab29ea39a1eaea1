"""SOFTMAX on drawn row lengths, scales and betas: reference == TFLite Micro, C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.softmax.attributes import SoftmaxAttributes
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

REGISTRY = build_builtin_registry()


def draw_graph(data: st.DataObject) -> Graph:
    rows, depth = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 40))
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.INT8, (rows, depth), data.draw(strategies.per_tensor(0.01, 0.5)))
    y = builder.tensor("probabilities", DType.INT8, (rows, depth), Quantization((1.0 / 256.0,), (-128,)))
    attributes = SoftmaxAttributes(beta=data.draw(st.sampled_from([1.0, 0.5, 2.0])))
    return builder.single_node_graph("SOFTMAX", [x], [y], attributes)


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    options = schema.SoftmaxOptionsT()
    options.beta = graph.nodes[0].attributes.beta
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SOFTMAX, 2, schema.BuiltinOptions.SoftmaxOptions, options
    )


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY)
