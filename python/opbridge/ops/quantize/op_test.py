# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE, float32 -> int8 and int8 -> int8 (requantize), on drawn shapes and quantization: reference == TFLite
Micro, C kernel == reference; and with ONNX's rounding (float32 -> int8, halves to even; its reference is checked
against onnxruntime's QuantizeLinear in tests/onnx/qlinear_ops_test.py): C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge_testing import strategies
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.quantize.attributes import QuantizeAttributes

REGISTRY = build_builtin_registry()
INPUT_DTYPES = st.sampled_from([DType.INT8, DType.FLOAT32])


def draw_graph(data: st.DataObject, input_dtype: DType, requantization: Requantization) -> Graph:
    """A drawn QUANTIZE node from `input_dtype` (int8: drawn quantization) to int8 (drawn quantization)."""
    shape = data.draw(array_shapes(min_dims=1, max_dims=3, max_side=6))
    builder = GraphBuilder()
    input_quantization = None if input_dtype is DType.FLOAT32 else data.draw(strategies.per_tensor(0.005, 0.5))
    x = builder.tensor("x", input_dtype, shape, input_quantization)
    y = builder.tensor("y", DType.INT8, shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    return builder.single_node_graph("QUANTIZE", [x], [y], QuantizeAttributes(requantization))


@settings(max_examples=10)
@given(st.data(), INPUT_DTYPES)
def test_reference_matches_tflite_micro(data: st.DataObject, input_dtype: DType) -> None:
    graph = draw_graph(data, input_dtype, Requantization.TFLITE)
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.QUANTIZE, 2)


@settings(max_examples=3)
@given(st.data(), INPUT_DTYPES)
def test_c_kernel_matches_reference(data: st.DataObject, input_dtype: DType) -> None:
    check_c_matches_reference(draw_graph(data, input_dtype, Requantization.TFLITE), REGISTRY)


@settings(max_examples=3)
@given(st.data())
def test_onnx_rounding_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data, DType.FLOAT32, Requantization.ONNX), REGISTRY)
