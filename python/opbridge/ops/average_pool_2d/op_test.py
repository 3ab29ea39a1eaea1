"""AVERAGE_POOL_2D and MAX_POOL_2D (int8 and float32) on drawn windows and paddings: reference == TFLite Micro,
C == reference (float32: bit for bit)."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    pool_2d_graph,
    pool_2d_options,
)

from opbridge.ir import DType
from opbridge.ir.attribute_types import Padding
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.builtin import build_builtin_registry

REGISTRY = build_builtin_registry()
CODES = {"AVERAGE_POOL_2D": schema.BuiltinOperator.AVERAGE_POOL_2D, "MAX_POOL_2D": schema.BuiltinOperator.MAX_POOL_2D}


@settings(max_examples=40)
@given(st.data(), st.sampled_from(sorted(CODES)))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = pool_2d_graph(data, op_type)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, CODES[op_type], 2, schema.BuiltinOptions.Pool2DOptions, pool_2d_options(graph)
    )


@settings(max_examples=20)
@given(st.data(), st.sampled_from(sorted(CODES)))
def test_c_kernel_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(pool_2d_graph(data, op_type), REGISTRY)


# float32: window sums in the kernel's order and one division, no libm: C and TFLite Micro match the
# reference bit for bit.


@settings(max_examples=15)
@given(st.data(), st.sampled_from(sorted(CODES)))
def test_float32_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = pool_2d_graph(data, op_type, DType.FLOAT32)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, CODES[op_type], 1, schema.BuiltinOptions.Pool2DOptions, pool_2d_options(graph)
    )


@settings(max_examples=8)
@given(st.data(), st.sampled_from(sorted(CODES)))
def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(pool_2d_graph(data, op_type, DType.FLOAT32), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize("op_type", sorted(CODES))
def test_float32_edge_values_match_tflite_micro(op_type: str) -> None:
    # SAME windows over edge values: overflowing sums (FLT_MAX after the clamp), infinities, NaN, -0.0.
    edges = FLOAT32_EDGE_VALUES.reshape(1, 4, 6, 1)
    attributes = Pool2DAttributes(
        padding=Padding.SAME, stride_height=1, stride_width=1, filter_height=2, filter_width=3
    )
    builder = GraphBuilder()
    x = builder.tensor("input", DType.FLOAT32, edges.shape)
    y = builder.tensor("output", DType.FLOAT32, edges.shape)
    graph = builder.single_node_graph(op_type, [x], [y], attributes)
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        CODES[op_type],
        1,
        schema.BuiltinOptions.Pool2DOptions,
        pool_2d_options(graph),
        inputs=[[edges], [-edges], [np.ascontiguousarray(edges[:, ::-1, ::-1])]],
    )
