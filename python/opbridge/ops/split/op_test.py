# SPDX-License-Identifier: Apache-2.0
"""SPLIT of float32, int8 (one quantization), int16 and int32 tensors into equal parts along any axis:
reference == TFLite Micro (one-operator LiteRT models), C module == reference bit for bit (the bytes are
copied); a run-time axis, parts quantized unlike the input and uneven parts are refused naming the node."""

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
from opbridge.ops.split.attributes import SPLIT_DTYPES, SplitAttributes

REGISTRY = available_operator_registry()
# TFLite's versions (op_version.cc).
VERSIONS = {DType.FLOAT32: 1, DType.INT8: 2, DType.INT32: 3, DType.INT16: 4}


def split_graph(
    dtype: DType,
    shape: tuple[int, ...],
    axis: int,
    count: int,
    quantization: Quantization | None = None,
    axis_shape: tuple[int, ...] = (),
    constant_axis: bool = True,
) -> Graph:
    builder = GraphBuilder()
    axis_data = np.full(axis_shape, axis, np.int32) if constant_axis else None
    a = builder.tensor("axis", DType.INT32, axis_shape, None, axis_data)
    x = builder.tensor("x", dtype, shape, quantization)
    part = list(shape)
    part[axis] //= count
    outputs = [builder.tensor(f"y{i}", dtype, tuple(part), quantization) for i in range(count)]
    return builder.single_node_graph("SPLIT", [a, x], outputs, SplitAttributes(num_splits=count))


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    rank = data.draw(st.integers(1, 4))
    shape = [data.draw(st.integers(1, 4)) for _ in range(rank)]
    axis = data.draw(st.integers(-rank, rank - 1))
    count = data.draw(st.integers(1, 4))
    shape[axis] *= count
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    axis_shape = data.draw(st.sampled_from([(), (1,)]))
    return split_graph(dtype, tuple(shape), axis, count, quantization, axis_shape)


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from(SPLIT_DTYPES))
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    options = schema.SplitOptionsT()
    options.numSplits = graph.nodes[0].attributes.num_splits
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SPLIT, VERSIONS[dtype], schema.BuiltinOptions.SplitOptions, options
    )


@settings(max_examples=20, deadline=None)
@given(st.data(), st.sampled_from(SPLIT_DTYPES))
def test_c_module_matches_reference(data: st.DataObject, dtype: DType) -> None:
    exact = 0 if dtype is DType.FLOAT32 else None  # others: byte for byte anyway
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY, float_ulp_tolerance=exact)


def test_a_run_time_axis_is_refused() -> None:
    graph = split_graph(DType.FLOAT32, (2, 4), 1, 2, constant_axis=False)
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT.*axis.*run time"):
        check_c_matches_reference(graph, REGISTRY)
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT.*axis.*run time"):
        ReferenceInterpreter(graph, REGISTRY).run([np.array(1, np.int32), np.zeros((2, 4), np.float32)])


def test_parts_quantized_unlike_the_input_are_refused() -> None:
    graph = split_graph(DType.INT8, (2, 4), 0, 2, Quantization((0.5,), (0,)))
    graph.tensors[graph.nodes[0].outputs[1]].quantization = Quantization((0.25,), (0,))
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(SPLIT.*output 1.*quantized"):
        check_c_matches_reference(graph, REGISTRY)


def test_uneven_parts_are_refused() -> None:
    graph = split_graph(DType.INT32, (3, 2), 0, 2)
    with pytest.raises(OpbridgeError, match=r"node 0 \(SPLIT.*size 3.*2 equal parts"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((3, 2), np.int32)])
