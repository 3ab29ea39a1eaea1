# SPDX-License-Identifier: Apache-2.0
"""UNPACK of float32, int8 (one quantization), int16 and int32 tensors along any axis: reference == TFLite
Micro (one-operator LiteRT models), C module == reference bit for bit (the bytes are copied); outputs
quantized unlike the input and a num unlike the axis size are refused naming the node."""

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
from opbridge.ops.unpack.attributes import UNPACK_DTYPES, UnpackAttributes

REGISTRY = available_operator_registry()
# TFLite's versions (op_version.cc).
VERSIONS = {DType.FLOAT32: 1, DType.INT32: 1, DType.INT8: 2, DType.INT16: 4}


def unpack_graph(dtype: DType, shape: tuple[int, ...], axis: int, quantization: Quantization | None = None) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantization)
    at = axis % len(shape)
    part = shape[:at] + shape[at + 1 :]
    outputs = [builder.tensor(f"y{i}", dtype, part, quantization) for i in range(shape[at])]
    return builder.single_node_graph("UNPACK", [x], outputs, UnpackAttributes(num=shape[at], axis=axis))


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    rank = data.draw(st.integers(1, 4))
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(rank))
    axis = data.draw(st.integers(-rank, rank - 1))
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    return unpack_graph(dtype, shape, axis, quantization)


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from(UNPACK_DTYPES))
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    options = schema.UnpackOptionsT()
    options.num = graph.nodes[0].attributes.num
    options.axis = graph.nodes[0].attributes.axis
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.UNPACK, VERSIONS[dtype], schema.BuiltinOptions.UnpackOptions, options
    )


@settings(max_examples=20, deadline=None)
@given(st.data(), st.sampled_from(UNPACK_DTYPES))
def test_c_module_matches_reference(data: st.DataObject, dtype: DType) -> None:
    exact = 0 if dtype is DType.FLOAT32 else None  # others: byte for byte anyway
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY, float_ulp_tolerance=exact)


def test_outputs_quantized_unlike_the_input_are_refused() -> None:
    graph = unpack_graph(DType.INT8, (2, 3), 1, Quantization((0.5,), (0,)))
    graph.tensors[graph.nodes[0].outputs[2]].quantization = None
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(UNPACK.*output 2.*quantized"):
        check_c_matches_reference(graph, REGISTRY)
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(UNPACK.*output 2.*quantized"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 3), np.int8)])


def test_a_num_unlike_the_axis_size_is_refused() -> None:
    graph = unpack_graph(DType.FLOAT32, (2, 3), 0)
    graph.nodes[0].attributes = UnpackAttributes(num=3, axis=0)
    with pytest.raises(OpbridgeError, match=r"node 0 \(UNPACK.*num 3"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 3), np.float32)])
