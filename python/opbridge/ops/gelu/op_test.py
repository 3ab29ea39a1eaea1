# SPDX-License-Identifier: Apache-2.0
"""GELU: int8 reference == LiteRT's reference kernel bit for bit (TFLite Micro has no GELU) on drawn input
and output quantizations and every int8 value, both forms; float32 reference within LITERT_RTOL of LiteRT
and within ONNX_RTOL of onnxruntime's Gelu; C kernel == reference (int8 bit for bit, float32 within C_ULPS:
libm's erfcf and tanhf against float64 rounded once); what the int8 table cannot represent is refused.
"""

import math

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from onnx import TensorProto, helper
from opbridge_testing import strategies
from opbridge_testing.arg_min_max_tests import run_litert
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError, UnsupportedTensorError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.gelu.attributes import GeluAttributes

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.GELU
EVERY_INT8 = np.arange(-128, 128, dtype=np.int8)
# libm's erfcf and tanhf are within a few ulps of float64 rounded once; the product keeps that.
C_ULPS = 4
# LiteRT's float32 GELU is not this formula bit for bit: its exact form is within 128 ulps of it (below
# |y| = 1e-30 it differs more, in absolute terms below LITERT_ATOL); its tanh form is coarser (relative
# error 1e-3 near x = -4 where y is 1e-6), so that is compared with an absolute tolerance too.
LITERT_RTOL, LITERT_ATOL = 2e-5, 1e-6
ONNX_RTOL, ONNX_ATOL = 1e-6, 1e-6
SCALES = st.floats(0.002, 0.25).map(lambda s: float(np.float32(s)))


def gelu_graph(
    shape: tuple[int, ...],
    dtype: DType,
    approximate: bool = False,
    quantizations: tuple[Quantization | None, Quantization | None] = (None, None),
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantizations[0])
    y = builder.tensor("y", dtype, shape, quantizations[1])
    return builder.single_node_graph("GELU", [x], [y], GeluAttributes(approximate=approximate))


def litert_model(graph: Graph) -> bytes:
    options = schema.GeluOptionsT()
    options.approximate = graph.nodes[0].attributes.approximate
    version = 2 if graph.tensors[0].dtype is DType.INT8 else 1
    return single_op_model(graph, CODE, version, schema.BuiltinOptions.GeluOptions, options)


def ours_and_litert(graph: Graph, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    model = litert_model(graph)
    parsed = read_litert_model(model, available_registry_context(), "gelu.tflite")
    assert parsed.nodes[0].attributes == graph.nodes[0].attributes, "GeluOptions did not round-trip"
    (ours,) = ReferenceInterpreter(parsed, REGISTRY).run([values])
    (theirs,) = run_litert(model, [values])
    return ours, theirs


@settings(max_examples=40, deadline=None)
@given(SCALES, SCALES, strategies.ZERO_POINTS, strategies.ZERO_POINTS, st.booleans())
def test_int8_matches_litert_on_every_value(
    input_scale: float, output_scale: float, input_zero_point: int, output_zero_point: int, approximate: bool
) -> None:
    quantizations = (
        Quantization((input_scale,), (input_zero_point,)),
        Quantization((output_scale,), (output_zero_point,)),
    )
    graph = gelu_graph((1, 256), DType.INT8, approximate, quantizations)
    ours, theirs = ours_and_litert(graph, EVERY_INT8.reshape(1, 256))
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("approximate", [False, True])
def test_float32_is_close_to_litert(approximate: bool) -> None:
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.standard_normal(2048) * 3, rng.uniform(-12, 12, 1024), [0.0, -0.0, 1e-30]])
    values = values.astype(np.float32).reshape(1, -1)
    ours, theirs = ours_and_litert(gelu_graph(values.shape, DType.FLOAT32, approximate), values)
    np.testing.assert_allclose(ours, theirs, rtol=LITERT_RTOL, atol=LITERT_ATOL)


def test_float32_edge_values() -> None:
    values = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 40.0, -40.0, 3.4e38, -3.4e38], np.float32)
    for approximate in (False, True):
        (ours,) = ReferenceInterpreter(gelu_graph(values.shape, DType.FLOAT32, approximate), REGISTRY).run([values])
        # Large x gives x (erfc(-inf) = 2, tanh(inf) = 1), large negative x gives -0: Phi(x) underflows.
        assert ours[0] == np.inf and ours[5] == 40.0 and ours[7] == np.float32(3.4e38)
        assert ours[6] == 0.0 and np.signbit(ours[6]) and ours[8] == 0.0
        assert np.isnan(ours[2]) and np.isnan(ours[1])  # -inf * 0


@settings(max_examples=6, deadline=None)
@given(array_shapes(min_dims=1, max_dims=4, max_side=6), st.booleans(), st.data())
def test_c_kernel_matches_reference(shape: tuple[int, ...], approximate: bool, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from([DType.INT8, DType.FLOAT32]))
    quantizations: tuple[Quantization | None, Quantization | None] = (None, None)
    if dtype is DType.INT8:
        quantizations = (data.draw(strategies.per_tensor()), data.draw(strategies.per_tensor()))
    graph = gelu_graph(shape, dtype, approximate, quantizations)
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=C_ULPS if dtype is DType.FLOAT32 else None)


def test_per_channel_quantization_is_refused() -> None:
    graph = gelu_graph((2, 3), DType.INT8, quantizations=(Quantization((0.1, 0.2), (0, 0), axis=1),) * 2)
    with pytest.raises(UnsupportedTensorError, match="per-tensor"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 3), np.int8)])


def test_an_output_scale_past_int32_is_refused() -> None:
    graph = gelu_graph((4,), DType.INT8, quantizations=(Quantization((10.0,), (0,)), Quantization((1e-9,), (0,))))
    with pytest.raises(UnsupportedTensorError, match="int32 range"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros(4, np.int8)])


def test_int16_is_refused_by_the_schema() -> None:
    graph = gelu_graph((4,), DType.INT16, quantizations=(Quantization((0.001,), (0,)),) * 2)
    with pytest.raises(OpbridgeError, match="int16"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros(4, np.int16)])


def onnx_gelu_model(approximate: str, shape: tuple[int, ...]) -> bytes:
    node = helper.make_node("Gelu", ["x"], ["y"], name="gelu", approximate=approximate)
    graph = helper.make_graph(
        [node],
        "gelu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]).SerializeToString()


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_onnx_gelu_is_close_to_onnxruntime(approximate: str) -> None:
    shape = (4, 256)
    model = onnx_gelu_model(approximate, shape)
    converted = read_onnx_model(model, available_registry_context())
    assert [(n.op_type, n.attributes) for n in converted.nodes] == [
        ("GELU", GeluAttributes(approximate=approximate == "tanh"))
    ]
    values = (np.random.default_rng(3).standard_normal(shape) * 4).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, REGISTRY).run([values])
    (theirs,) = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": values})
    np.testing.assert_allclose(ours, theirs, rtol=ONNX_RTOL, atol=ONNX_ATOL)
    check_c_matches_reference(converted, REGISTRY, float_ulp_tolerance=C_ULPS)


def test_onnx_gelu_with_an_unknown_approximation_is_refused() -> None:
    with pytest.raises(OpbridgeError, match="approximate='erf'"):
        read_onnx_model(onnx_gelu_model("erf", (2, 2)), available_registry_context())


def test_tables_are_monotonic_above_the_minimum() -> None:
    """GELU rises from its minimum near x = -0.75: the int8 table must too (a check of the rounding's sign)."""
    graph = gelu_graph((1, 256), DType.INT8, quantizations=(Quantization((0.05,), (0,)),) * 2)
    (table,) = ReferenceInterpreter(graph, REGISTRY).run([EVERY_INT8.reshape(1, 256)])
    rising = table.ravel()[128 + math.ceil(0.75 / 0.05) :]
    assert np.all(np.diff(rising.astype(np.int32)) >= 0)
