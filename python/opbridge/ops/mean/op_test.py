# SPDX-License-Identifier: Apache-2.0
"""MEAN over drawn constant axes, with and without keep_dims (int8 and float32): reference == TFLite Micro,
C module == reference (float32: bit for bit; sums in TFLite Micro's row-major order, no libm)."""

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.mean.attributes import MeanAttributes

REGISTRY = available_operator_registry()


def draw_graph(data: st.DataObject, dtype: DType, requantization: Requantization = Requantization.TFLITE) -> Graph:
    rank = data.draw(st.integers(1, 4))
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(rank))
    # One to `rank` axes, sometimes negative, sometimes repeated (TFLite Micro resolves both).
    axes = data.draw(st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank))
    keep_dims = data.draw(st.booleans())
    reduced = {axis % rank for axis in axes}
    if keep_dims:
        output_shape = tuple(1 if axis in reduced else size for axis, size in enumerate(shape))
    else:
        output_shape = tuple(size for axis, size in enumerate(shape) if axis not in reduced)
    input_q = data.draw(strategies.per_tensor(0.01, 0.5)) if dtype is DType.INT8 else None
    output_q = data.draw(strategies.per_tensor(0.01, 0.5)) if dtype is DType.INT8 else None
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, input_q)
    axes_tensor = builder.tensor("axes", DType.INT32, (len(axes),), None, np.array(axes, dtype=np.int32))
    y = builder.tensor("mean", dtype, output_shape, output_q)
    attributes = MeanAttributes(keep_dims=keep_dims, requantization=requantization)
    return builder.single_node_graph("MEAN", [x, axes_tensor], [y], attributes)


def options_of(graph: Graph) -> schema.ReducerOptionsT:
    options = schema.ReducerOptionsT()
    options.keepDims = graph.nodes[0].attributes.keep_dims
    return options


@settings(max_examples=20)
@given(st.data(), st.sampled_from([DType.INT8, DType.FLOAT32]))
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.MEAN, 1, schema.BuiltinOptions.ReducerOptions, options_of(graph)
    )


@settings(max_examples=5)
@given(st.data())
def test_c_module_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data, DType.INT8), REGISTRY)


@settings(max_examples=8)
@given(st.data())
def test_onnx_requantization_c_module_matches_reference(data: st.DataObject) -> None:
    # ONNX's output stage (onnxruntime's QLinearGlobalAveragePool; the reference against onnxruntime is in
    # tests/onnx/qlinear_ops_test.py): the centred sum times one float32 scale, halves to even.
    check_c_matches_reference(draw_graph(data, DType.INT8, Requantization.ONNX), REGISTRY)


@settings(max_examples=6)
@given(st.data())
def test_float32_c_module_matches_reference_exactly(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data, DType.FLOAT32), REGISTRY, float_ulp_tolerance=0)


def test_float32_global_average_pool_over_edge_values_matches_tflite_micro() -> None:
    # NHWC [1, 4, 6, 1] over axes 1 and 2 with keep_dims: TFLite Micro's special 4-D path; and NCHW-style
    # axes 2 and 3 (ONNX's GlobalAveragePool) through its general path. Sums overflow, meet inf and NaN.
    for shape, axes in (((1, 4, 6, 1), [1, 2]), ((1, 1, 4, 6), [2, 3])):
        values = FLOAT32_EDGE_VALUES.reshape(shape)
        builder = GraphBuilder()
        x = builder.tensor("input", DType.FLOAT32, shape)
        axes_tensor = builder.tensor("axes", DType.INT32, (2,), None, np.array(axes, dtype=np.int32))
        y = builder.tensor("mean", DType.FLOAT32, tuple(1 if a in axes else s for a, s in enumerate(shape)))
        graph = builder.single_node_graph("MEAN", [x, axes_tensor], [y], MeanAttributes(keep_dims=True))
        finite = np.where(np.isfinite(values), values, np.float32(1.0))
        check_reference_matches_tflite_micro(
            graph,
            REGISTRY,
            schema.BuiltinOperator.MEAN,
            1,
            schema.BuiltinOptions.ReducerOptions,
            options_of(graph),
            inputs=[[values], [-values], [finite]],
        )
