# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX (float32) on drawn shapes and logit ranges: reference == TFLite Micro, C kernel == reference,
ONNX LogSoftmax (last and middle axes) converted == onnxruntime; int8 is refused by the schema.

exp and log are float64 rounded once to float32 in the reference (ops/shared/float32.py), expf and logf
from libm in the C kernel and in TFLite Micro. glibc's logf is not correctly rounded: on 108,000 outputs
of random rows 300 differed from TFLite Micro, by at most 2 ulps, all through log(sum) (with glibc's logf
in its place the reference matched every bit). Since the output is (x - max) - log(sum), two non-positive
terms, a log an ulp away moves the output by at most about an ulp. (The C kernel built for the host
matched TFLite Micro bit for bit on those rows.) So TFLite Micro is matched within FLOAT_RTOL (about 8
ulps) and the C kernel within FLOAT_ULPS, not bit for bit.
"""

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

# Operators its graphs gain in conversion (tests/architecture/operator_deps.py):
# ONNX's NCHW layout adds TRANSPOSEs.
USES_OPERATORS = ("transpose",)

REGISTRY = available_operator_registry()
FLOAT_RTOL = 1e-6
FLOAT_ULPS = 4


def draw_graph(data: st.DataObject) -> Graph:
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(0, 3))))
    shape += (data.draw(st.integers(1, 40)),)
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.FLOAT32, shape)
    y = builder.tensor("log_probabilities", DType.FLOAT32, shape)
    return builder.single_node_graph("LOG_SOFTMAX", [x], [y], None)


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.LOG_SOFTMAX,
        1,
        schema.BuiltinOptions.LogSoftmaxOptions,
        schema.LogSoftmaxOptionsT(),
        float_rtol=FLOAT_RTOL,
        inputs=inputs,
    )


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    # Logits spread from a fraction of a unit (sums of many similar exps) to hundreds (exps underflow).
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    shape = graph.tensors[0].shape
    inputs = [[(rng.standard_normal(shape) * spread).astype(np.float32)] for spread in (0.1, 1.0, 8.0, 300.0)]
    check_against_tflite_micro(graph, inputs)


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY, float_ulp_tolerance=FLOAT_ULPS)


def test_wide_and_edge_logits_match_tflite_micro() -> None:
    # Rows whose exps underflow to 0, equal logits, overflowing differences, and the shared float32 edge
    # values (infinities and NaN give NaN rows; -inf alone gives -inf).
    rows = np.array(
        [
            [-200.0, 0.0, 50.0, -0.0, 49.5, 1e-45],
            [3.0, 3.0, 3.0, 3.0, 3.0, 3.0],
            [-3e38, 3e38, 0.0, 1.0, 2.0, 1e38],
            [-np.inf, 0.0, 1.0, 2.0, 3.0, 4.0],
        ],
        dtype=np.float32,
    )
    edges = FLOAT32_EDGE_VALUES.reshape(4, 6)
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.FLOAT32, rows.shape)
    y = builder.tensor("log_probabilities", DType.FLOAT32, rows.shape)
    graph = builder.single_node_graph("LOG_SOFTMAX", [x], [y], None)
    check_against_tflite_micro(graph, inputs=[[rows], [edges], [-edges]])


def test_int8_is_refused_by_the_schema() -> None:
    # An int8 LOG_SOFTMAX (version 2) reads, and is refused where the converter checks every node.
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.INT8, (2, 5), Quantization((0.1,), (0,)))
    y = builder.tensor("log_probabilities", DType.INT8, (2, 5), Quantization((16.0 / 256.0,), (127,)))
    graph = builder.single_node_graph("LOG_SOFTMAX", [x], [y], None)
    model = single_op_model(
        graph,
        schema.BuiltinOperator.LOG_SOFTMAX,
        2,
        schema.BuiltinOptions.LogSoftmaxOptions,
        schema.LogSoftmaxOptionsT(),
    )
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "log_softmax_int8.tflite")
    with pytest.raises(ShapeInferenceError, match=r"is int8; opbridge.LOG_SOFTMAX .* allows T in \{float32\}"):
        validate_graph(parsed, REGISTRY)


@pytest.mark.parametrize(
    ("shape", "axis", "transposes"),
    [((3, 7), None, 0), ((2, 3, 5), -1, 0), ((2, 6, 5), 1, 2), ((2, 4, 3, 5), -3, 2), ((6, 4), 0, 2)],
)
def test_onnx_log_softmax_matches_onnxruntime(shape: tuple[int, ...], axis: int | None, transposes: int) -> None:
    attributes = {} if axis is None else {"axis": axis}  # None: ONNX's default -1
    node = helper.make_node("LogSoftmax", ["x"], ["y"], name="log_softmax", **attributes)
    graph = helper.make_graph(
        [node],
        "log_softmax",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert sorted(n.op_type for n in converted.nodes) == sorted(["LOG_SOFTMAX"] + ["TRANSPOSE"] * transposes)
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(11)
    for spread in (0.5, 4.0, 40.0):
        values = (rng.standard_normal(shape) * spread).astype(np.float32)
        (ours,) = ReferenceInterpreter(converted, context).run([values])
        (theirs,) = session.run(None, {"x": values})
        # onnxruntime adds the exps in its own (vectorised) order: its sum may be a few of the sum's ulps
        # away, which moves log(sum) by up to about depth * 2^-24 in absolute terms; outputs near 0 (the
        # largest logit of a dominated row) are all log(sum), hence the small atol besides rtol.
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)
