"""LOGISTIC and TANH on drawn input quantization: reference == TFLite Micro, C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

REGISTRY = build_builtin_registry()
OUTPUTS = {"LOGISTIC": Quantization((1.0 / 256.0,), (-128,)), "TANH": Quantization((1.0 / 128.0,), (0,))}


def draw_graph(data: st.DataObject, op_type: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 3))))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, shape, data.draw(strategies.per_tensor(0.002, 0.5)))
    y = builder.tensor("y", DType.INT8, shape, OUTPUTS[op_type])
    return builder.single_node_graph(op_type, [x], [y], None)


@settings(max_examples=30)
@given(st.data(), st.sampled_from(sorted(OUTPUTS)))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    code = schema.BuiltinOperator.LOGISTIC if op_type == "LOGISTIC" else schema.BuiltinOperator.TANH
    check_reference_matches_tflite_micro(draw_graph(data, op_type), REGISTRY, code, 2, cases=4)


@settings(max_examples=10)
@given(st.data(), st.sampled_from(sorted(OUTPUTS)))
def test_c_kernel_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(draw_graph(data, op_type), REGISTRY)
