# SPDX-License-Identifier: Apache-2.0
"""MUL with broadcasting and a drawn fused activation, int8 on drawn quantization, plain int32 and float32:
reference == TFLite Micro, C kernel == reference (float32: bit for bit, edge values included).
The int8 and float32 tests are MUL's and SUB's alike: opbridge_testing/mul_sub_tests.py; int32 is MUL's own."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.mul_sub_tests import litert_options, mul_sub_tests
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.ir import DType, Graph
from opbridge.ops.add.attributes import AddAttributes

REGISTRY = available_operator_registry()

(
    test_reference_matches_tflite_micro,
    test_c_kernel_matches_reference,
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference_exactly,
    test_float32_edge_values_match_tflite_micro,
    test_float32_c_kernel_on_edge_values,
) = mul_sub_tests("MUL", schema.BuiltinOperator.MUL, schema.BuiltinOptions.MulOptions, schema.MulOptionsT)


def int32_graph(data: st.DataObject) -> Graph:
    return broadcast_binary_graph(data, "MUL", DType.INT32, AddAttributes(activation=data.draw(strategies.ACTIVATIONS)))


@settings(max_examples=25)
@given(st.data())
def test_int32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = int32_graph(data)
    options = litert_options(graph, schema.MulOptionsT)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.MUL, 1, schema.BuiltinOptions.MulOptions, options
    )


@settings(max_examples=10)
@given(st.data())
def test_int32_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(int32_graph(data), REGISTRY)
