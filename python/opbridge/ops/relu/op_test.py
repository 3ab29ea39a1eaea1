"""RELU, RELU6 and QUANTIZE/DEQUANTIZE (element-wise): reference == TFLite Micro, C == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Graph
from opbridge.ops.builtin import build_builtin_registry
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

REGISTRY = build_builtin_registry()
OP_TYPES = ["RELU", "RELU6", "QUANTIZE_INT8", "QUANTIZE_FLOAT", "DEQUANTIZE"]
CODES = {
    "RELU": schema.BuiltinOperator.RELU,
    "RELU6": schema.BuiltinOperator.RELU6,
    "QUANTIZE": schema.BuiltinOperator.QUANTIZE,
    "DEQUANTIZE": schema.BuiltinOperator.DEQUANTIZE,
}


def draw_graph(data: st.DataObject, kind: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 3))))
    builder = GraphBuilder()
    input_dtype = DType.FLOAT32 if kind == "QUANTIZE_FLOAT" else DType.INT8
    input_q = None if input_dtype is DType.FLOAT32 else data.draw(strategies.per_tensor(0.005, 0.5))
    x = builder.tensor("x", input_dtype, shape, input_q)
    if kind == "DEQUANTIZE":
        y = builder.tensor("y", DType.FLOAT32, shape)
    elif kind == "RELU6":
        y = builder.tensor("y", DType.INT8, shape, input_q)  # TFLite's RELU6 keeps the input's parameters
    else:
        y = builder.tensor("y", DType.INT8, shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    return builder.single_node_graph(kind.split("_")[0], [x], [y], None)


@settings(max_examples=25)
@given(st.data(), st.sampled_from(OP_TYPES))
def test_reference_matches_tflite_micro(data: st.DataObject, kind: str) -> None:
    graph = draw_graph(data, kind)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODES[graph.nodes[0].op_type], 2)


@settings(max_examples=10)
@given(st.data(), st.sampled_from(OP_TYPES))
def test_c_kernel_matches_reference(data: st.DataObject, kind: str) -> None:
    check_c_matches_reference(draw_graph(data, kind), REGISTRY)
