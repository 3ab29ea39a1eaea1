# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION of int8 (one quantization), int16, int32 and float32 tensors, some constant, along any axis:
reference == TFLite Micro, C module == reference (bit for bit: the bytes are copied)."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.concatenation.attributes import ConcatenationAttributes

REGISTRY = available_operator_registry()
DTYPES = st.sampled_from([DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32])


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    rank = data.draw(st.integers(1, 4))
    shape = [data.draw(st.integers(1, 4)) for _ in range(rank)]
    axis = data.draw(st.integers(-rank, rank - 1))
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    builder = GraphBuilder()
    inputs = []
    for position in range(data.draw(st.integers(1, 4))):
        input_shape = list(shape)
        input_shape[axis] = data.draw(st.integers(1, 5))
        values = None
        # Some inputs are constants (the audio front end pads with constant zeros); at least one is not.
        if position > 0 and data.draw(st.booleans()):
            rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
            if dtype is DType.FLOAT32:
                values = rng.standard_normal(input_shape).astype(np.float32)
            else:
                info = np.iinfo(dtype.numpy)
                values = rng.integers(info.min, info.max, size=input_shape, endpoint=True).astype(dtype.numpy)
        inputs.append(builder.tensor(f"x{position}", dtype, tuple(input_shape), quantization, values))
    output_shape = list(shape)
    output_shape[axis] = sum(builder.tensors[i].shape[axis] for i in inputs)
    y = builder.tensor("y", dtype, tuple(output_shape), quantization)
    return builder.single_node_graph("CONCATENATION", inputs, [y], ConcatenationAttributes(axis=axis))


@settings(max_examples=30)
@given(st.data(), DTYPES)
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    options = schema.ConcatenationOptionsT()
    options.axis = graph.nodes[0].attributes.axis
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.CONCATENATION,
        1,
        schema.BuiltinOptions.ConcatenationOptions,
        options,
    )


@settings(max_examples=15)
@given(st.data(), st.sampled_from([DType.INT8, DType.INT16, DType.INT32]))
def test_c_module_matches_reference(data: st.DataObject, dtype: DType) -> None:
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY)


@settings(max_examples=6)
@given(st.data())
def test_float32_c_module_matches_reference_exactly(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data, DType.FLOAT32), REGISTRY, float_ulp_tolerance=0)


def test_int8_inputs_quantized_unlike_the_output_are_refused() -> None:
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, (2,), Quantization((0.5,), (0,)))
    b = builder.tensor("b", DType.INT8, (3,), Quantization((0.25,), (0,)))
    y = builder.tensor("y", DType.INT8, (5,), Quantization((0.5,), (0,)))
    graph = builder.single_node_graph("CONCATENATION", [a, b], [y], ConcatenationAttributes(axis=0))
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(CONCATENATION.*input 1"):
        check_c_matches_reference(graph, REGISTRY)
