# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE, int8 or int16 -> float32, on drawn shapes and quantization: reference == TFLite Micro, C kernel ==
reference. int16 inputs are quantized as TFLite's converter quantizes 16x8 activations: symmetric, zero point 0."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph

REGISTRY = available_operator_registry()
INPUT_DTYPES = st.sampled_from([DType.INT8, DType.INT16])
# TFLite's DEQUANTIZE versions: 2 for int8, 3 for int16.
VERSIONS = {DType.INT8: 2, DType.INT16: 3}


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    shape = data.draw(array_shapes(min_dims=1, max_dims=3, max_side=6))
    builder = GraphBuilder()
    quantization = strategies.per_tensor(0.005, 0.5) if dtype is DType.INT8 else strategies.int16_symmetric()
    x = builder.tensor("x", dtype, shape, data.draw(quantization))
    y = builder.tensor("y", DType.FLOAT32, shape)
    return builder.single_node_graph("DEQUANTIZE", [x], [y], None)


@settings(max_examples=8)
@given(st.data(), INPUT_DTYPES)
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.DEQUANTIZE, VERSIONS[dtype])


@settings(max_examples=4)
@given(st.data(), INPUT_DTYPES)
def test_c_kernel_matches_reference(data: st.DataObject, dtype: DType) -> None:
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY)
