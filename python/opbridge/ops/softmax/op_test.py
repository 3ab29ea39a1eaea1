# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX on drawn row lengths, scales and betas (int8 and float32): reference == TFLite Micro, C kernel ==
reference (float32: within a few ulps, libm's expf)."""

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.softmax.attributes import SoftmaxAttributes

REGISTRY = build_builtin_registry()


def draw_graph(data: st.DataObject) -> Graph:
    rows, depth = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 40))
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.INT8, (rows, depth), data.draw(strategies.per_tensor(0.01, 0.5)))
    y = builder.tensor("probabilities", DType.INT8, (rows, depth), Quantization((1.0 / 256.0,), (-128,)))
    attributes = SoftmaxAttributes(beta=data.draw(st.sampled_from([1.0, 0.5, 2.0])))
    return builder.single_node_graph("SOFTMAX", [x], [y], attributes)


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    options = schema.SoftmaxOptionsT()
    options.beta = graph.nodes[0].attributes.beta
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SOFTMAX, 2, schema.BuiltinOptions.SoftmaxOptions, options
    )


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY)


# float32 calls expf, which may round an ulp away from the reference's float64-then-float32 exp: compared with
# TFLite Micro within FLOAT_RTOL (about 8 ulps) and with the C kernel within FLOAT_ULPS, not bit for bit.
FLOAT_RTOL = 1e-6
FLOAT_ULPS = 4


def float32_graph(data: st.DataObject) -> Graph:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(0, 2))))
    shape += (data.draw(st.integers(1, 40)),)
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.FLOAT32, shape)
    y = builder.tensor("probabilities", DType.FLOAT32, shape)
    attributes = SoftmaxAttributes(beta=data.draw(st.sampled_from([1.0, 0.5, 2.0, 0.125])))
    return builder.single_node_graph("SOFTMAX", [x], [y], attributes)


def options_of(graph: Graph) -> schema.SoftmaxOptionsT:
    options = schema.SoftmaxOptionsT()
    options.beta = graph.nodes[0].attributes.beta
    return options


@settings(max_examples=15)
@given(st.data())
def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = float32_graph(data)
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.SOFTMAX,
        1,
        schema.BuiltinOptions.SoftmaxOptions,
        options_of(graph),
        float_rtol=FLOAT_RTOL,
    )


@settings(max_examples=8)
@given(st.data())
def test_float32_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(float32_graph(data), REGISTRY, float_ulp_tolerance=FLOAT_ULPS)


def test_float32_wide_logits_match_tflite_micro() -> None:
    # Rows whose exps underflow to 0 (differences below -104 / beta), and a row of equal logits.
    rows = np.array(
        [[-200.0, 0.0, 50.0, -0.0, 49.5, 1e-45], [3.0, 3.0, 3.0, 3.0, 3.0, 3.0], [-3e38, 3e38, 0.0, 1.0, 2.0, 1e38]],
        dtype=np.float32,
    )
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.FLOAT32, rows.shape)
    y = builder.tensor("probabilities", DType.FLOAT32, rows.shape)
    graph = builder.single_node_graph("SOFTMAX", [x], [y], SoftmaxAttributes(beta=1.0))
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.SOFTMAX,
        1,
        schema.BuiltinOptions.SoftmaxOptions,
        options_of(graph),
        float_rtol=FLOAT_RTOL,
        inputs=[[rows]],
    )
