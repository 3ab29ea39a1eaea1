"""LOGISTIC and TANH on drawn input quantization (int8), and on float32: reference == TFLite Micro, C kernel ==
reference (float32: within a few ulps, libm's expf and tanhf)."""

import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.builtin import build_builtin_registry

REGISTRY = build_builtin_registry()
OUTPUTS = {"LOGISTIC": Quantization((1.0 / 256.0,), (-128,)), "TANH": Quantization((1.0 / 128.0,), (0,))}


def draw_graph(data: st.DataObject, op_type: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 3))))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, shape, data.draw(strategies.per_tensor(0.002, 0.5)))
    y = builder.tensor("y", DType.INT8, shape, OUTPUTS[op_type])
    return builder.single_node_graph(op_type, [x], [y], None)


@settings(max_examples=30)
@given(st.data(), st.sampled_from(sorted(OUTPUTS)))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    code = schema.BuiltinOperator.LOGISTIC if op_type == "LOGISTIC" else schema.BuiltinOperator.TANH
    check_reference_matches_tflite_micro(draw_graph(data, op_type), REGISTRY, code, 2, cases=4)


@settings(max_examples=10)
@given(st.data(), st.sampled_from(sorted(OUTPUTS)))
def test_c_kernel_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(draw_graph(data, op_type), REGISTRY)


# float32 LOGISTIC and TANH call libm (expf, tanhf), which may round an ulp or two away from the reference's
# float64-then-float32 exp and tanh: compared with TFLite Micro within FLOAT_RTOL (about 8 ulps) and with the
# C kernel within FLOAT_ULPS, not bit for bit.
FLOAT_CODES = {"LOGISTIC": schema.BuiltinOperator.LOGISTIC, "TANH": schema.BuiltinOperator.TANH}
FLOAT_RTOL = 1e-6
FLOAT_ULPS = 4


def float32_graph(data: st.DataObject, op_type: str) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 4))))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, shape)
    y = builder.tensor("y", DType.FLOAT32, shape)
    return builder.single_node_graph(op_type, [x], [y], None)


@settings(max_examples=10)
@given(st.data(), st.sampled_from(sorted(FLOAT_CODES)))
def test_float32_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = float32_graph(data, op_type)
    check_reference_matches_tflite_micro(graph, REGISTRY, FLOAT_CODES[op_type], 1, cases=4, float_rtol=FLOAT_RTOL)


@settings(max_examples=5)
@given(st.data(), st.sampled_from(sorted(FLOAT_CODES)))
def test_float32_c_kernel_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(float32_graph(data, op_type), REGISTRY, float_ulp_tolerance=FLOAT_ULPS)


@pytest.mark.parametrize("op_type", sorted(FLOAT_CODES))
def test_float32_edge_values_match_tflite_micro(op_type: str) -> None:
    # The LOGISTIC cut-offs (16.619047, -9) from both sides, infinities, NaN, subnormals, -0.0.
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
    y = builder.tensor("y", DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
    graph = builder.single_node_graph(op_type, [x], [y], None)
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        FLOAT_CODES[op_type],
        1,
        float_rtol=FLOAT_RTOL,
        inputs=[[FLOAT32_EDGE_VALUES], [-FLOAT32_EDGE_VALUES]],
    )
