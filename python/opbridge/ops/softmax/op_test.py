# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX on drawn row lengths, scales and betas (int8, int8 -> int16, int16 and float32): reference == TFLite
Micro, C kernel == reference (float32: within a few ulps, libm's expf). int16 is quantized as TFLite's converter
quantizes 16x8 models (see int16_graph)."""

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
from opbridge.ops.softmax.attributes import SoftmaxAttributes

REGISTRY = available_operator_registry()


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


# int16 (TFLite's 16x8 quantization), quantized as TFLite's converter quantizes it: the logits symmetric with zero
# point 0 and a drawn scale; the probabilities at scale 1/32768, zero point 0 (what TFLite Micro requires).
INT16_OUTPUT = Quantization((1.0 / 32768.0,), (0,))


def drawn_graph(
    data: st.DataObject, input_dtype: DType, input_q: Quantization, output_q: Quantization, int16_output: bool
) -> Graph:
    """A SOFTMAX of drawn shape (rank 1 to 3, rows up to 40) and beta, writing int16 probabilities."""
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(0, 2))))
    shape += (data.draw(st.integers(1, 40)),)
    builder = GraphBuilder()
    x = builder.tensor("logits", input_dtype, shape, input_q)
    y = builder.tensor("probabilities", DType.INT16, shape, output_q)
    beta = data.draw(st.sampled_from([1.0, 0.5, 2.0, 0.125]))
    return builder.single_node_graph("SOFTMAX", [x], [y], SoftmaxAttributes(beta=beta, int16_output=int16_output))


def int16_graph(data: st.DataObject, output_q: Quantization = INT16_OUTPUT) -> Graph:
    return drawn_graph(data, DType.INT16, data.draw(strategies.int16_symmetric(1e-5, 3e-3)), output_q, False)


@settings(max_examples=30)
@given(st.data())
def test_int16_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = int16_graph(data)
    # TFLite's SOFTMAX version 3: int16.
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SOFTMAX, 3, schema.BuiltinOptions.SoftmaxOptions, options_of(graph)
    )


@settings(max_examples=10)
@given(st.data())
def test_int16_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(int16_graph(data), REGISTRY)


def test_int16_tables_are_tflite_micros() -> None:
    # Rows that walk every exp table segment: logits 0, -128, -256, ... at scale 10 / 65535 (beta 1), so the
    # scaled differences step through the table's 512 entries; compared with TFLite Micro as a whole.
    logits = -np.arange(0, 65536, 97, dtype=np.int64).clip(max=32767 + 32768)
    row = (32767 - logits).clip(-32768, 32767).astype(np.int16).reshape(1, -1)
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.INT16, row.shape, Quantization((10.0 / 65535.0,), (0,)))
    y = builder.tensor("probabilities", DType.INT16, row.shape, INT16_OUTPUT)
    graph = builder.single_node_graph("SOFTMAX", [x], [y], SoftmaxAttributes(beta=1.0))
    rng = np.random.default_rng(7)
    inputs = [[row], [rng.integers(-32768, 32768, size=row.shape).astype(np.int16)]]
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SOFTMAX, 3, schema.BuiltinOptions.SoftmaxOptions,
        options_of(graph), inputs=inputs,
    )  # fmt: skip


@settings(max_examples=1)
@given(st.data())
def test_int16_with_another_output_scale_is_refused(data: st.DataObject) -> None:
    graph = int16_graph(data, Quantization((1.0 / 256.0,), (0,)))
    with pytest.raises(UnsupportedTensorError, match=r"softmax_under_test.*output scale 1/32768"):
        check_c_matches_reference(graph, REGISTRY)


# int8 -> int16 (TFLite's int8 softmax written as int16): TFLite Micro requires the output at scale 1/65536 (within
# 0.1%), zero point -32768, and computes as for int8 output but divides down to 16 bits.
INT8_TO_INT16_OUTPUT = Quantization((1.0 / 65536.0,), (-32768,))


def int8_to_int16_graph(data: st.DataObject, output_q: Quantization = INT8_TO_INT16_OUTPUT) -> Graph:
    return drawn_graph(data, DType.INT8, data.draw(strategies.per_tensor(0.01, 0.5)), output_q, True)


@settings(max_examples=30)
@given(st.data())
def test_int8_to_int16_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = int8_to_int16_graph(data)
    # TFLite's SOFTMAX version 2: int8 (its int16 output included).
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SOFTMAX, 2, schema.BuiltinOptions.SoftmaxOptions, options_of(graph)
    )


@settings(max_examples=10)
@given(st.data())
def test_int8_to_int16_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(int8_to_int16_graph(data), REGISTRY)


# Each refused by TFLite Micro's Prepare too (its zero point and scale checks).
@pytest.mark.parametrize(
    "output_q",
    [
        Quantization((1.0 / 32768.0,), (0,)),
        Quantization((1.0 / 65536.0,), (0,)),
        Quantization((1.0 / 32768.0,), (-32768,)),
    ],
    ids=["int16_softmax_quantization", "zero_point_0", "scale_1_32768"],
)
def test_int8_to_int16_with_another_output_quantization_is_refused(output_q: Quantization) -> None:
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.INT8, (2, 5), Quantization((0.1,), (3,)))
    y = builder.tensor("probabilities", DType.INT16, (2, 5), output_q)
    graph = builder.single_node_graph("SOFTMAX", [x], [y], SoftmaxAttributes(int16_output=True))
    with pytest.raises(UnsupportedTensorError, match=r"softmax_under_test.*output scale 1/65536 and zero point -32768"):
        check_c_matches_reference(graph, REGISTRY)
