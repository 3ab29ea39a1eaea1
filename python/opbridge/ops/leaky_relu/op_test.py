# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU, int8 on drawn quantization and alpha, and float32: reference == TFLite Micro, C kernel ==
reference (float32: bit for bit); ONNX LeakyRelu converts to it and equals onnxruntime bit for bit."""

import re

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.leaky_relu.attributes import LeakyReluAttributes

REGISTRY = available_operator_registry()
# alpha is a float32 in both file formats, so the drawn values are float32 values.
ALPHAS = st.one_of(st.sampled_from([0.0, 0.01, 0.1, 0.2, 0.5, 1.0, -0.3, 2.0]), st.floats(-2.0, 2.0, width=32)).map(
    lambda alpha: float(np.float32(alpha))
)


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    """A drawn LEAKY_RELU node; int8 ones take alpha >= 0 (see test_negative_int8_alpha_is_refused)."""
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 4))))
    quantized = dtype is DType.INT8
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, data.draw(strategies.per_tensor(0.005, 0.5)) if quantized else None)
    y = builder.tensor("y", dtype, shape, data.draw(strategies.per_tensor(0.005, 0.5)) if quantized else None)
    alpha = data.draw(ALPHAS.map(abs) if quantized else ALPHAS)
    return builder.single_node_graph("LEAKY_RELU", [x], [y], LeakyReluAttributes(alpha=alpha))


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    options = schema.LeakyReluOptionsT()
    options.alpha = graph.nodes[0].attributes.alpha
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.LEAKY_RELU, 2, schema.BuiltinOptions.LeakyReluOptions, options,
        inputs=inputs,
    )  # fmt: skip


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_graph(data, DType.INT8))


@settings(max_examples=12)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data, DType.INT8), REGISTRY)


@settings(max_examples=10)
@given(st.data())
def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_graph(data, DType.FLOAT32))


@settings(max_examples=6)
@given(st.data())
def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data, DType.FLOAT32), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize("alpha", [0.2, -0.5])
def test_float32_edge_values_match_tflite_micro(alpha: float) -> None:
    # NaN and -0.0 take the alpha branch (x > 0 is false), infinities scale by alpha.
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
    y = builder.tensor("y", DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
    attributes = LeakyReluAttributes(alpha=float(np.float32(alpha)))
    graph = builder.single_node_graph("LEAKY_RELU", [x], [y], attributes)
    check_against_tflite_micro(graph, inputs=[[FLOAT32_EDGE_VALUES], [-FLOAT32_EDGE_VALUES]])


def test_negative_int8_alpha_is_refused() -> None:
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, (4,), Quantization((0.1,), (0,)))
    y = builder.tensor("y", DType.INT8, (4,), Quantization((0.1,), (0,)))
    graph = builder.single_node_graph("LEAKY_RELU", [x], [y], LeakyReluAttributes(alpha=-0.5))
    with pytest.raises(UnsupportedOperatorError, match=re.escape("alpha -0.5 (below 0) is not supported")):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros(4, np.int8)])


@pytest.mark.parametrize("alpha", [None, 0.1, 3.0])
def test_onnx_leaky_relu_matches_onnxruntime(alpha: float | None) -> None:
    attributes = {} if alpha is None else {"alpha": alpha}  # None: ONNX's default 0.01
    node = helper.make_node("LeakyRelu", ["x"], ["y"], name="leaky", **attributes)
    graph = helper.make_graph(
        [node],
        "leaky_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 8])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["LEAKY_RELU"]
    values = np.random.default_rng(7).standard_normal((3, 8)).astype(np.float32) * 10
    values[0, :4] = [0.0, -0.0, 1e-45, -1e-45]
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": values})
    np.testing.assert_array_equal(ours, theirs)
