"""RELU, RELU6 (int8 and float32) and QUANTIZE/DEQUANTIZE (element-wise): reference == TFLite Micro,
C == reference (float32 RELU and RELU6: bit for bit)."""

import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.quantize.attributes import QuantizeAttributes

REGISTRY = build_builtin_registry()
OP_TYPES = ["RELU", "RELU6", "QUANTIZE_INT8", "QUANTIZE_FLOAT", "DEQUANTIZE"]
# QUANTIZE float32 -> int8 rounding halves to even (ONNX's QuantizeLinear; its reference is
# checked against onnxruntime in tests/onnx/qlinear_ops_test.py): C == reference only.
C_ONLY_OP_TYPES = ["QUANTIZE_ONNX"]
CODES = {
    "RELU": schema.BuiltinOperator.RELU,
    "RELU6": schema.BuiltinOperator.RELU6,
    "QUANTIZE": schema.BuiltinOperator.QUANTIZE,
    "DEQUANTIZE": schema.BuiltinOperator.DEQUANTIZE,
}


def draw_graph(data: st.DataObject, kind: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 3))))
    builder = GraphBuilder()
    input_dtype = DType.FLOAT32 if kind in ("QUANTIZE_FLOAT", "QUANTIZE_ONNX") else DType.INT8
    input_q = None if input_dtype is DType.FLOAT32 else data.draw(strategies.per_tensor(0.005, 0.5))
    x = builder.tensor("x", input_dtype, shape, input_q)
    if kind == "DEQUANTIZE":
        y = builder.tensor("y", DType.FLOAT32, shape)
    elif kind == "RELU6":
        y = builder.tensor("y", DType.INT8, shape, input_q)  # TFLite's RELU6 keeps the input's parameters
    else:
        y = builder.tensor("y", DType.INT8, shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    op_type = kind.split("_")[0]
    attributes = None
    if op_type == "QUANTIZE":
        onnx = kind == "QUANTIZE_ONNX"
        attributes = QuantizeAttributes(Requantization.ONNX if onnx else Requantization.TFLITE)
    return builder.single_node_graph(op_type, [x], [y], attributes)


@settings(max_examples=25)
@given(st.data(), st.sampled_from(OP_TYPES))
def test_reference_matches_tflite_micro(data: st.DataObject, kind: str) -> None:
    graph = draw_graph(data, kind)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODES[graph.nodes[0].op_type], 2)


@settings(max_examples=12)
@given(st.data(), st.sampled_from(OP_TYPES + C_ONLY_OP_TYPES))
def test_c_kernel_matches_reference(data: st.DataObject, kind: str) -> None:
    check_c_matches_reference(draw_graph(data, kind), REGISTRY)


# float32 RELU and RELU6: comparisons only, so C and TFLite Micro match the reference bit for bit.
FLOAT_CODES = {"RELU": schema.BuiltinOperator.RELU, "RELU6": schema.BuiltinOperator.RELU6}


def float32_graph(data: st.DataObject, op_type: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 4))))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, shape)
    y = builder.tensor("y", DType.FLOAT32, shape)
    return builder.single_node_graph(op_type, [x], [y], None)


@settings(max_examples=10)
@given(st.data(), st.sampled_from(sorted(FLOAT_CODES)))
def test_float32_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    check_reference_matches_tflite_micro(float32_graph(data, op_type), REGISTRY, FLOAT_CODES[op_type], 1)


@settings(max_examples=5)
@given(st.data(), st.sampled_from(sorted(FLOAT_CODES)))
def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(float32_graph(data, op_type), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize("op_type", sorted(FLOAT_CODES))
def test_float32_edge_values_match_tflite_micro(op_type: str) -> None:
    # NaN and -0.0 pass through (x < 0 is false for both), infinities clamp.
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
    y = builder.tensor("y", DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
    graph = builder.single_node_graph(op_type, [x], [y], None)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, FLOAT_CODES[op_type], 1, inputs=[[FLOAT32_EDGE_VALUES], [-FLOAT32_EDGE_VALUES]]
    )
