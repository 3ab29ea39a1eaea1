# SPDX-License-Identifier: Apache-2.0
"""PACK of float32, int8 (one quantization), int16, int32 and int64 tensors, some constant, along any new
axis: reference == TFLite Micro (one-operator LiteRT models), C module == reference bit for bit (the bytes
are copied); inputs quantized unlike the output and a values_count unlike the inputs are refused naming
the node."""

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
from opbridge.ops.pack.attributes import PACK_DTYPES, PackAttributes

REGISTRY = available_operator_registry()
# TFLite's versions (op_version.cc).
VERSIONS = {DType.FLOAT32: 1, DType.INT32: 1, DType.INT64: 1, DType.INT8: 2, DType.INT16: 3}


def pack_graph(
    dtype: DType,
    shape: tuple[int, ...],
    axis: int,
    count: int,
    quantization: Quantization | None = None,
    constants: dict[int, np.ndarray] | None = None,
) -> Graph:
    builder = GraphBuilder()
    inputs: list[int | None] = [
        builder.tensor(f"x{i}", dtype, shape, quantization, (constants or {}).get(i)) for i in range(count)
    ]
    at = axis % (len(shape) + 1)
    y = builder.tensor("y", dtype, (*shape[:at], count, *shape[at:]), quantization)
    return builder.single_node_graph("PACK", inputs, [y], PackAttributes(values_count=count, axis=axis))


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    rank = data.draw(st.integers(0, 3))
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(rank))
    axis = data.draw(st.integers(-rank - 1, rank))
    count = data.draw(st.integers(1, 4))
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    constants = {}
    for position in range(1, count):  # input 0 is never constant: the graph keeps an input
        if data.draw(st.booleans()):
            rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
            if dtype is DType.FLOAT32:
                constants[position] = rng.standard_normal(shape).astype(np.float32)
            else:
                info = np.iinfo(dtype.numpy)
                constants[position] = rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype.numpy)
    return pack_graph(dtype, shape, axis, count, quantization, constants)


def options_of(graph: Graph) -> schema.PackOptionsT:
    options = schema.PackOptionsT()
    options.valuesCount = graph.nodes[0].attributes.values_count
    options.axis = graph.nodes[0].attributes.axis
    return options


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from(PACK_DTYPES))
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.PACK, VERSIONS[dtype], schema.BuiltinOptions.PackOptions,
        options_of(graph),
    )  # fmt: skip


@settings(max_examples=20, deadline=None)
@given(st.data(), st.sampled_from(PACK_DTYPES))
def test_c_module_matches_reference(data: st.DataObject, dtype: DType) -> None:
    exact = 0 if dtype is DType.FLOAT32 else None  # others: byte for byte anyway
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY, float_ulp_tolerance=exact)


def test_inputs_quantized_unlike_the_output_are_refused() -> None:
    graph = pack_graph(DType.INT8, (3,), 0, 2, Quantization((0.5,), (0,)))
    graph.tensors[graph.nodes[0].inputs[1]].quantization = Quantization((0.25,), (0,))  # type: ignore[index]
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(PACK.*input 1.*quantized"):
        check_c_matches_reference(graph, REGISTRY)
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(PACK.*input 1.*quantized"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros(3, np.int8), np.zeros(3, np.int8)])


def test_a_values_count_unlike_the_inputs_is_refused() -> None:
    graph = pack_graph(DType.FLOAT32, (2,), 0, 2)
    graph.nodes[0].attributes = PackAttributes(values_count=3, axis=0)
    with pytest.raises(OpbridgeError, match=r"node 0 \(PACK.*values_count 3 for 2 inputs"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros(2, np.float32), np.zeros(2, np.float32)])
