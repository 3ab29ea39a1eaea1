# SPDX-License-Identifier: Apache-2.0
"""FULLY_CONNECTED on drawn shapes and quantization: reference == TFLite Micro, C kernel == reference.

int8 and float32 (inputs of rank 1 to 4, keep_num_dims or not); float32
outputs equal TFLite Micro's and the C kernel's bit for bit.

int16 (TFLite's 16x8 quantization), quantized as TFLite's converter quantizes it: int16 input and output
symmetric with zero point 0, int8 weights symmetric per channel (or per tensor), an int64 bias of scale
input_scale * filter_scale (the default), or an int32 one (quantized_bias_type INT32, version 11), or none.
"""

import numpy as np
import pytest
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

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes

REGISTRY = available_operator_registry()


def draw_graph(data: st.DataObject, requantization: Requantization = Requantization.TFLITE) -> Graph:
    batches, depth, units = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 40)), data.draw(st.integers(1, 20))
    input_q = data.draw(strategies.per_tensor())
    filter_q = data.draw(strategies.symmetric_filter(units, axis=0))
    output_q = data.draw(strategies.per_tensor(0.01, 2.0))
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (batches, depth), input_q)
    w = builder.tensor("filter", DType.INT8, (units, depth), filter_q, strategies.int8_array(data.draw, (units, depth)))
    b = None
    if data.draw(st.booleans()):
        bias_q = Quantization(
            tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis
        )
        b = builder.tensor("bias", DType.INT32, (units,), bias_q, strategies.bias_array(data.draw, units))
    y = builder.tensor("output", DType.INT8, (batches, units), output_q)
    attributes = FullyConnectedAttributes(activation=data.draw(strategies.ACTIVATIONS), requantization=requantization)
    return builder.single_node_graph("FULLY_CONNECTED", [x, w, b], [y], attributes)


def draw_float32_graph(data: st.DataObject) -> Graph:
    """float32 rows of `depth` values: [..., depth] (any leading dimensions), or flat."""
    depth, units = data.draw(st.integers(1, 40)), data.draw(st.integers(1, 12))
    leading = tuple(data.draw(st.integers(1, 3)) for _ in range(data.draw(st.integers(0, 3))))
    input_shape = (*leading, depth)
    rows = int(np.prod(leading, dtype=np.int64))
    keep_num_dims = data.draw(st.booleans())
    if not keep_num_dims and data.draw(st.booleans()):
        input_shape = (rows * depth,)  # TFLite reads any input as rows of depth values
    output_shape = (*leading, units) if keep_num_dims else (rows, units)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    builder = GraphBuilder()
    x = builder.tensor("input", DType.FLOAT32, input_shape)
    w = builder.tensor(
        "filter", DType.FLOAT32, (units, depth), data=rng.standard_normal((units, depth)).astype(np.float32)
    )
    b = None
    if data.draw(st.booleans()):
        b = builder.tensor("bias", DType.FLOAT32, (units,), data=rng.standard_normal(units).astype(np.float32))
    y = builder.tensor("output", DType.FLOAT32, output_shape)
    attributes = FullyConnectedAttributes(activation=data.draw(strategies.ACTIVATIONS), keep_num_dims=keep_num_dims)
    return builder.single_node_graph("FULLY_CONNECTED", [x, w, b], [y], attributes)


def draw_int16_graph(data: st.DataObject, requantization: Requantization = Requantization.TFLITE) -> Graph:
    """16x8: int16 input and output (symmetric, zero point 0), int8 symmetric weights (per channel or per tensor),
    an int64 bias, an int32 one, or none."""
    batches, depth, units = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 40)), data.draw(st.integers(1, 20))
    input_q = data.draw(strategies.int16_symmetric(1e-5, 1e-2))
    filter_q = data.draw(strategies.symmetric_filter(units, axis=0))
    output_q = data.draw(strategies.int16_symmetric(1e-4, 1e-1))
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT16, (batches, depth), input_q)
    w = builder.tensor("filter", DType.INT8, (units, depth), filter_q, strategies.int8_array(data.draw, (units, depth)))
    b = None
    bias_dtype = data.draw(st.sampled_from([DType.INT64, DType.INT32, None]))
    if bias_dtype is not None:
        bias_q = Quantization(
            tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis
        )
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        bound = 2**24 if bias_dtype is DType.INT64 else 2**20
        values = rng.integers(-bound, bound, size=(units,)).astype(bias_dtype.numpy)
        b = builder.tensor("bias", bias_dtype, (units,), bias_q, values)
    y = builder.tensor("output", DType.INT16, (batches, units), output_q)
    attributes = FullyConnectedAttributes(activation=data.draw(strategies.ACTIVATIONS), requantization=requantization)
    return builder.single_node_graph("FULLY_CONNECTED", [x, w, b], [y], attributes)


def int32_bias(graph: Graph) -> bool:
    node = graph.nodes[0]
    return len(node.inputs) > 2 and node.inputs[2] is not None and graph.tensors[node.inputs[2]].dtype is DType.INT32


def litert_options(graph: Graph) -> schema.FullyConnectedOptionsT:
    options = schema.FullyConnectedOptionsT()
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    options.keepNumDims = graph.nodes[0].attributes.keep_num_dims
    if graph.tensors[graph.nodes[0].inputs[0]].dtype is DType.INT16 and int32_bias(graph):
        options.quantizedBiasType = schema.TensorType.INT32
    return options


def check_against_tflite_micro(graph: Graph, version: int, inputs: list[list[np.ndarray]] | None = None) -> None:
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.FULLY_CONNECTED, version,
        schema.BuiltinOptions.FullyConnectedOptions, litert_options(graph), inputs=inputs,
    )  # fmt: skip


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_graph(data), 4)


@settings(max_examples=30)
@given(st.data())
def test_int16_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_int16_graph(data)
    # TFLite's version: 11 with quantized_bias_type INT32; 6 without a bias, else 1.
    version = 11 if int32_bias(graph) else (6 if graph.nodes[0].inputs[2] is None else 1)
    check_against_tflite_micro(graph, version)


@settings(max_examples=12)
@given(st.data())
def test_int16_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_int16_graph(data), REGISTRY)


@settings(max_examples=1)
@given(st.data())
def test_int16_with_onnx_requantization_is_refused(data: st.DataObject) -> None:
    graph = draw_int16_graph(data, Requantization.ONNX)
    with pytest.raises(UnsupportedOperatorError, match=r"fully_connected_under_test.*int16 FULLY_CONNECTED with onnx"):
        check_c_matches_reference(graph, REGISTRY)


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY)


@settings(max_examples=15)
@given(st.data())
def test_onnx_requantization_c_kernel_matches_reference(data: st.DataObject) -> None:
    # Requantization.ONNX; the reference's is checked against onnxruntime's QLinearMatMul
    # and QGemm in tests/onnx/qlinear_ops_test.py.
    check_c_matches_reference(draw_graph(data, Requantization.ONNX), REGISTRY)


@settings(max_examples=40)
@given(st.data())
def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_float32_graph(data), 1)


@settings(max_examples=20)
@given(st.data())
def test_float32_reference_matches_tflite_micro_at_the_edges(data: st.DataObject) -> None:
    """Inputs with infinities, NaN, signed zeros, subnormals and overflowing values."""
    graph = draw_float32_graph(data)
    shape = graph.tensors[graph.inputs[0]].shape
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    edges = rng.choice(FLOAT32_EDGE_VALUES, size=shape)
    normal = rng.standard_normal(shape).astype(np.float32)
    check_against_tflite_micro(graph, 1, [[np.where(rng.random(shape) < 0.3, edges, normal).astype(np.float32)]])


@settings(max_examples=12)
@given(st.data())
def test_float32_c_kernel_equals_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_float32_graph(data), REGISTRY, float_ulp_tolerance=0)
