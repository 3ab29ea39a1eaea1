# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE, int8 -> float32, on drawn shapes and quantization: reference == TFLite Micro, C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge_testing import strategies
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph
from opbridge.ops.builtin import build_builtin_registry

REGISTRY = build_builtin_registry()


def draw_graph(data: st.DataObject) -> Graph:
    shape = data.draw(array_shapes(min_dims=1, max_dims=3, max_side=6))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, shape, data.draw(strategies.per_tensor(0.005, 0.5)))
    y = builder.tensor("y", DType.FLOAT32, shape)
    return builder.single_node_graph("DEQUANTIZE", [x], [y], None)


@settings(max_examples=5)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_reference_matches_tflite_micro(draw_graph(data), REGISTRY, schema.BuiltinOperator.DEQUANTIZE, 2)


@settings(max_examples=3)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY)
