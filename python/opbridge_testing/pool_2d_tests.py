# SPDX-License-Identifier: Apache-2.0
"""The op tests AVERAGE_POOL_2D and MAX_POOL_2D share (ops/average_pool_2d/op_test.py, ops/max_pool_2d/op_test.py):
int8 and float32 on drawn windows, strides, paddings and fused activations: reference == TFLite Micro, C kernel ==
reference.

float32: window sums in the kernel's order and one division, no libm: C and TFLite Micro match the reference bit
for bit, on drawn inputs and on FLOAT32_EDGE_VALUES.
"""

from collections.abc import Callable

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Padding, window
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes

from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

REGISTRY = available_operator_registry()


def pool_2d_graph(data: st.DataObject, op_type: str, dtype: DType = DType.INT8) -> Graph:
    """A drawn AVERAGE_POOL_2D or MAX_POOL_2D node (hypothesis), int8 or float32."""
    height, width, channels = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9)), data.draw(st.integers(1, 4))
    attributes = Pool2DAttributes(
        padding=data.draw(strategies.PADDINGS),
        stride_height=data.draw(st.integers(1, 3)),
        stride_width=data.draw(st.integers(1, 3)),
        filter_height=data.draw(st.integers(1, 4)),
        filter_width=data.draw(st.integers(1, 4)),
        activation=data.draw(strategies.ACTIVATIONS),
    )
    rows = window(attributes.padding, height, attributes.filter_height, attributes.stride_height)
    cols = window(attributes.padding, width, attributes.filter_width, attributes.stride_width)
    assume(rows.output_size > 0 and cols.output_size > 0)
    # TFLite requires equal input and output quantization.
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, (1, height, width, channels), quantization)
    y = builder.tensor("output", dtype, (1, rows.output_size, cols.output_size, channels), quantization)
    return builder.single_node_graph(op_type, [x], [y], attributes)


def pool_2d_options(graph: Graph) -> schema.Pool2DOptionsT:
    attributes = graph.nodes[0].attributes
    options = schema.Pool2DOptionsT()
    options.padding = attributes.padding.value
    options.strideH, options.strideW = attributes.stride_height, attributes.stride_width
    options.filterHeight, options.filterWidth = attributes.filter_height, attributes.filter_width
    options.fusedActivationFunction = attributes.activation.value
    return options


def pool_2d_tests(op_type: str, builtin_code: int) -> tuple[Callable[..., None], ...]:
    """The five test functions of AVERAGE_POOL_2D or MAX_POOL_2D, for the op's op_test.py to bind by name."""

    def check_against_tflite_micro(graph: Graph, version: int, inputs: list[list[np.ndarray]] | None = None) -> None:
        options = pool_2d_options(graph)
        check_reference_matches_tflite_micro(
            graph, REGISTRY, builtin_code, version, schema.BuiltinOptions.Pool2DOptions, options, inputs=inputs
        )

    @settings(max_examples=20)
    @given(st.data())
    def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
        check_against_tflite_micro(pool_2d_graph(data, op_type), 2)

    @settings(max_examples=10)
    @given(st.data())
    def test_c_kernel_matches_reference(data: st.DataObject) -> None:
        check_c_matches_reference(pool_2d_graph(data, op_type), REGISTRY)

    @settings(max_examples=8)
    @given(st.data())
    def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
        check_against_tflite_micro(pool_2d_graph(data, op_type, DType.FLOAT32), 1)

    @settings(max_examples=4)
    @given(st.data())
    def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
        check_c_matches_reference(pool_2d_graph(data, op_type, DType.FLOAT32), REGISTRY, float_ulp_tolerance=0)

    def test_float32_edge_values_match_tflite_micro() -> None:
        # SAME windows over edge values: overflowing sums (FLT_MAX after the clamp), infinities, NaN, -0.0.
        edges = FLOAT32_EDGE_VALUES.reshape(1, 4, 6, 1)
        attributes = Pool2DAttributes(
            padding=Padding.SAME, stride_height=1, stride_width=1, filter_height=2, filter_width=3
        )
        builder = GraphBuilder()
        x = builder.tensor("input", DType.FLOAT32, edges.shape)
        y = builder.tensor("output", DType.FLOAT32, edges.shape)
        graph = builder.single_node_graph(op_type, [x], [y], attributes)
        check_against_tflite_micro(graph, 1, inputs=[[edges], [-edges], [np.ascontiguousarray(edges[:, ::-1, ::-1])]])

    return (
        test_reference_matches_tflite_micro,
        test_c_kernel_matches_reference,
        test_float32_reference_matches_tflite_micro,
        test_float32_c_kernel_matches_reference_exactly,
        test_float32_edge_values_match_tflite_micro,
    )
