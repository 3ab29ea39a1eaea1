# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION (float32 and int8) on drawn shapes and quantization: reference == TFLite Micro bit for bit,
C module == reference bit for bit; the int8 fixed-point inverse square root on zero rows, a sum of 1, and sums
past 2^29 (its shift-down loop); float32 on zero rows (epsilon), overflow and NaN; typed errors for a fused
activation, an int8 output not in units of 1/128, and rank 5."""

import pathlib
import tempfile

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.aot.compile import compile_graph
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Activation
from opbridge.ops.l2_normalization.attributes import L2NormalizationAttributes
from opbridge.ops.l2_normalization.reference import OUTPUT_SCALE

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.L2_NORMALIZATION
OUTPUT_Q = Quantization((OUTPUT_SCALE,), (0,))


def l2_graph(
    shape: tuple[int, ...],
    dtype: DType = DType.FLOAT32,
    input_q: Quantization | None = None,
    output_q: Quantization | None = OUTPUT_Q,
    activation: Activation = Activation.NONE,
    data: np.ndarray | None = None,
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, input_q, data=data)
    y = builder.tensor("output", dtype, shape, output_q if dtype is DType.INT8 else None)
    return builder.single_node_graph("L2_NORMALIZATION", [x], [y], L2NormalizationAttributes(activation))


def draw_graph(data: st.DataObject) -> Graph:
    dtype = data.draw(st.sampled_from([DType.FLOAT32, DType.INT8]))
    leading = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(0, 3))))
    shape = (*leading, data.draw(st.sampled_from([1, 2, 3, 5, 8, 16, 33])))
    input_q = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    return l2_graph(shape, dtype, input_q)


def options(graph: Graph) -> schema.L2NormOptionsT:
    packed = schema.L2NormOptionsT()
    packed.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    return packed


def check_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    version = 2 if graph.tensors[0].dtype is DType.INT8 else 1
    options_type = schema.BuiltinOptions.L2NormOptions
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, version, options_type, options(graph), inputs=inputs)


def exact(graph: Graph) -> int | None:
    return 0 if graph.tensors[0].dtype is DType.FLOAT32 else None  # int8: byte for byte anyway


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_tflite_micro(draw_graph(data))


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_c_module_matches_reference(data: st.DataObject) -> None:
    graph = draw_graph(data)
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=exact(graph))


def int8_rows() -> np.ndarray:
    """Rows of 8 stored values around zero point -3: all zero (sum 0), one step (sum 1), extremes, a ramp."""
    rows = [[-3] * 8, [-3] * 7 + [-2], [-3] * 7 + [-4], [127] * 8, [-128] * 8, list(range(-128, 128, 32))]
    rows += [[-3, 127, -128, -3, 0, 1, 2, 3]]
    return np.array(rows, np.int8)


def test_int8_edge_rows_match_tflite_micro_and_c() -> None:
    graph = l2_graph((7, 8), DType.INT8, Quantization((0.05,), (-3,)))
    check_tflite_micro(graph, [[int8_rows()]])
    (ours,) = ReferenceInterpreter(graph, REGISTRY).run([int8_rows()])
    np.testing.assert_array_equal(ours[0], 0)  # all zero: 0 * INT32_MAX
    assert ours[1, 7] == 127 and ours[2, 7] == -128  # 1 / sqrt(1) in units of 1/128, clamped at 127
    constant = l2_graph((7, 8), DType.INT8, Quantization((0.05,), (-3,)), data=int8_rows())
    check_c_matches_reference(constant, REGISTRY, cases=1)


def test_int8_sums_past_2_to_the_29_match_tflite_micro_and_c() -> None:
    # 9000 * 255^2 > 2^29: the inverse square root's shift-down loop runs.
    values = np.full((2, 9000), 127, np.int8)
    values[1, ::3] = -128
    graph = l2_graph((2, 9000), DType.INT8, Quantization((0.01,), (-128,)))
    check_tflite_micro(graph, [[values]])
    constant = l2_graph((2, 9000), DType.INT8, Quantization((0.01,), (-128,)), data=values)
    check_c_matches_reference(constant, REGISTRY, cases=1)


def float32_rows() -> np.ndarray:
    rows = [
        [0.0, 0.0, 0.0, 0.0],  # norm 0 -> epsilon: 0 / 1e-6
        [1e-8, -1e-8, 0.0, 1e-9],  # norm below epsilon
        [3e38, 3e38, 1.0, -1.0],  # the sum overflows: x / inf
        [np.nan, 1.0, 2.0, 3.0],
        [-0.0, 3.0, 4.0, 0.0],
        [1e-45, 0.0, 0.0, 0.0],
    ]
    return np.array(rows, np.float32)


def test_float32_edge_rows_match_tflite_micro_and_c() -> None:
    graph = l2_graph((6, 4))
    check_tflite_micro(graph, [[float32_rows()]])
    finite = float32_rows()[[0, 1, 2, 4, 5]]
    check_c_matches_reference(l2_graph((5, 4), data=finite), REGISTRY, cases=1, float_ulp_tolerance=0)


def refused(graph: Graph, values: np.ndarray, pattern: str) -> None:
    with pytest.raises(OpbridgeError, match=pattern):
        ReferenceInterpreter(graph, REGISTRY).run([values])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=pattern):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


@pytest.mark.parametrize("activation", [Activation.RELU, Activation.RELU6, Activation.RELU_N1_TO_1])
def test_fused_activations_are_refused(activation: Activation) -> None:
    graph = l2_graph((2, 4), activation=activation)
    refused(graph, np.ones((2, 4), np.float32), rf"l2_normalization_under_test.*fused activation {activation.name} ")


@pytest.mark.parametrize("output_q", [Quantization((0.01,), (0,)), Quantization((OUTPUT_SCALE,), (3,)), None])
def test_int8_output_not_in_units_of_one_128th_is_refused(output_q: Quantization | None) -> None:
    graph = l2_graph((2, 4), DType.INT8, Quantization((0.1,), (0,)), output_q)
    refused(graph, np.ones((2, 4), np.int8), r"l2_normalization_under_test.*writes scale 1/128, zero point 0")


def test_rank_5_is_refused() -> None:
    graph = l2_graph((1, 1, 1, 2, 4))
    refused(graph, np.ones((1, 1, 1, 2, 4), np.float32), r"l2_normalization_under_test.*rank 5")
