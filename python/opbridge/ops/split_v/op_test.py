# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V of float32, int8 (one quantization), int16 and int32 tensors into parts of drawn sizes (int32 or
int64 size_splits, one sometimes -1) along any axis: reference == TFLite Micro (one-operator LiteRT models),
C module == reference bit for bit; run-time size_splits or axis, sizes that do not fit and parts quantized
unlike the input are refused naming the node."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.split_v.attributes import SPLIT_V_DTYPES, SplitVAttributes
from opbridge.ops.split_v.reference import resolve_sizes

REGISTRY = available_operator_registry()


def split_v_graph(
    dtype: DType,
    shape: tuple[int, ...],
    axis: int,
    sizes: list[int],
    quantization: Quantization | None = None,
    sizes_dtype: DType = DType.INT32,
    axis_shape: tuple[int, ...] = (),
    constant_sizes: bool = True,
    constant_axis: bool = True,
) -> Graph:
    """A SPLIT_V node; the outputs' shapes from `sizes` with a -1 resolved (when they fit the axis)."""
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantization)
    sizes_data = np.array(sizes, sizes_dtype.numpy) if constant_sizes else None
    s = builder.tensor("size_splits", sizes_dtype, (len(sizes),), None, sizes_data)
    axis_data = np.full(axis_shape, axis, np.int32) if constant_axis else None
    a = builder.tensor("axis", DType.INT32, axis_shape, None, axis_data)
    resolved = resolve_sizes(sizes, shape[axis])
    outputs = []
    for i, size in enumerate(sizes if isinstance(resolved, str) else resolved):
        part = list(shape)
        part[axis] = max(size, 0)
        outputs.append(builder.tensor(f"y{i}", dtype, tuple(part), quantization))
    return builder.single_node_graph("SPLIT_V", [x, s, a], outputs, SplitVAttributes(num_splits=len(sizes)))


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    rank = data.draw(st.integers(1, 4))
    shape = [data.draw(st.integers(1, 4)) for _ in range(rank)]
    axis = data.draw(st.integers(-rank, rank - 1))
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    shape[axis] = sum(sizes)
    if data.draw(st.booleans()):
        sizes[data.draw(st.integers(0, len(sizes) - 1))] = -1
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    sizes_dtype = data.draw(st.sampled_from([DType.INT32, DType.INT64]))
    axis_shape = data.draw(st.sampled_from([(), (1,)]))
    return split_v_graph(dtype, tuple(shape), axis, sizes, quantization, sizes_dtype, axis_shape)


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from(SPLIT_V_DTYPES))
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    options = schema.SplitVOptionsT()
    options.numSplits = graph.nodes[0].attributes.num_splits
    version = 2 if dtype is DType.INT8 else 1  # TFLite's op_version.cc
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SPLIT_V, version, schema.BuiltinOptions.SplitVOptions, options
    )


@settings(max_examples=20, deadline=None)
@given(st.data(), st.sampled_from(SPLIT_V_DTYPES))
def test_c_module_matches_reference(data: st.DataObject, dtype: DType) -> None:
    exact = 0 if dtype is DType.FLOAT32 else None  # others: byte for byte anyway
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY, float_ulp_tolerance=exact)


def test_resolve_sizes() -> None:
    assert resolve_sizes([1, -1, 2], 6) == [1, 3, 2]
    assert resolve_sizes([2, 4], 6) == [2, 4]
    assert resolve_sizes([0, -1], 3) == [0, 3]
    assert isinstance(resolve_sizes([2, 2], 6), str)
    assert isinstance(resolve_sizes([-1, -1], 6), str)
    assert isinstance(resolve_sizes([7, -1], 6), str)
    assert isinstance(resolve_sizes([-2, 8], 6), str)


def test_run_time_size_splits_or_axis_are_refused() -> None:
    x = np.zeros((2, 4), np.float32)
    graph = split_v_graph(DType.FLOAT32, (2, 4), 1, [1, 3], constant_sizes=False)
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT_V.*size_splits.*run time"):
        check_c_matches_reference(graph, REGISTRY)
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT_V.*size_splits.*run time"):
        ReferenceInterpreter(graph, REGISTRY).run([x, np.array([1, 3], np.int32)])
    graph = split_v_graph(DType.FLOAT32, (2, 4), 1, [1, 3], constant_axis=False)
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT_V.*axis.*run time"):
        check_c_matches_reference(graph, REGISTRY)
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT_V.*axis.*run time"):
        ReferenceInterpreter(graph, REGISTRY).run([x, np.array(1, np.int32)])


def test_sizes_that_do_not_fit_are_refused() -> None:
    graph = split_v_graph(DType.INT16, (5, 2), 0, [2, 2])
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT_V.*do not add up to the axis size 5"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((5, 2), np.int16)])


def test_parts_quantized_unlike_the_input_are_refused() -> None:
    graph = split_v_graph(DType.INT8, (2, 4), -1, [3, -1], Quantization((0.5,), (1,)))
    graph.tensors[graph.nodes[0].outputs[0]].quantization = Quantization((0.5,), (2,))
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(SPLIT_V.*output 0.*quantized"):
        check_c_matches_reference(graph, REGISTRY)
