# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION (float32) on drawn shapes, windows and coefficients: ONNX's LRN converted ==
onnxruntime (odd sizes; it refuses even ones, which are checked against the spec's formula in float64),
the reference == LiteRT's interpreter (TFLite Micro has no LRN kernel), C kernel == reference.

Tolerances, per element: onnxruntime sums each window as a running sum (the next channel's alpha/size * x^2
added, the last one's subtracted) and takes Eigen's pow, the reference sums each window from 0 and takes a
correctly rounded pow; the scale differs by a few ulps of the running sum, so the outputs agree within
ONNX_RTOL (1e-5) relative, with ONNX_ATOL (1e-6 times the largest input) for outputs near 0. LiteRT's
optimized kernel sums in its own order too: LITERT_RTOL (1e-5). The C kernel rounds every step as the
reference does but for libm's powf (within an ulp or two of the reference's): C_ULPS (4).
"""

import math
import re

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph
from opbridge.ops.lrn.attributes import LocalResponseNormalizationAttributes
from opbridge.ops.lrn.reference import check_local_response_normalization
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

# Operators its graphs gain in conversion (tests/architecture/operator_deps.py):
# ONNX's NCHW layout adds TRANSPOSEs.
USES_OPERATORS = ("transpose",)

REGISTRY = available_operator_registry()
ONNX_RTOL = 1e-5
ONNX_ATOL = 1e-6
LITERT_RTOL = 1e-5
C_ULPS = 4


def lrn_graph(shape: tuple[int, ...], attributes: LocalResponseNormalizationAttributes) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("input", DType.FLOAT32, shape)
    y = builder.tensor("output", DType.FLOAT32, shape)
    return builder.single_node_graph("LOCAL_RESPONSE_NORMALIZATION", [x], [y], attributes)


def draw_attributes(data: st.DataObject, symmetric: bool) -> LocalResponseNormalizationAttributes:
    before = data.draw(st.integers(0, 4))
    return LocalResponseNormalizationAttributes(
        radius_before=before,
        radius_after=before if symmetric else data.draw(st.integers(0, 4)),
        bias=float(np.float32(data.draw(st.sampled_from([1.0, 2.0, 0.5, 1e-3])))),
        alpha=float(np.float32(data.draw(st.sampled_from([1e-4, 1e-2, 0.3, 1.0])))),
        beta=float(np.float32(data.draw(st.sampled_from([0.75, 0.5, 1.0, 0.2])))),
    )


def draw_shape(data: st.DataObject) -> tuple[int, ...]:
    leading = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(0, 3))))
    return (*leading, data.draw(st.integers(1, 24)))


def onnx_lrn_model(shape: tuple[int, ...], size: int, alpha: float, beta: float, bias: float) -> bytes:
    node = helper.make_node("LRN", ["x"], ["y"], name="lrn", size=size, alpha=alpha, beta=beta, bias=bias)
    graph = helper.make_graph(
        [node],
        "lrn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


def onnx_spec_lrn(x: np.ndarray, size: int, alpha: float, beta: float, bias: float) -> np.ndarray:
    """ONNX's LRN as its specification writes it, in float64: the square sum over the channels
    max(0, c - floor((size - 1) / 2)) .. min(C - 1, c + ceil((size - 1) / 2)). (onnx.reference's LRN
    cannot serve: onnx 1.x's op_lrn.py loops over the batch axis where it means the channels.)"""
    wide = x.astype(np.float64)
    channels = x.shape[1]
    square_sum = np.zeros_like(wide)
    for c in range(channels):
        first, last = max(0, c - math.floor((size - 1) / 2)), min(channels - 1, c + math.ceil((size - 1) / 2))
        square_sum[:, c] = np.sum(wide[:, first : last + 1] ** 2, axis=1)
    return (wide / (bias + alpha / size * square_sum) ** beta).astype(np.float32)


@settings(max_examples=30, deadline=None)
@given(
    data=st.data(),
    size=st.integers(1, 8),
    alpha=st.sampled_from([1e-4, 1e-3, 0.1, 1.0]),
    beta=st.sampled_from([0.75, 0.5, 1.0, 0.3]),
    bias=st.sampled_from([1.0, 2.0, 0.5]),
    spread=st.sampled_from([0.5, 4.0, 30.0]),
)
def test_onnx_lrn_matches_onnxruntime(
    data: st.DataObject, size: int, alpha: float, beta: float, bias: float, spread: float
) -> None:
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 12)), data.draw(st.integers(1, 5)), 3)
    model = onnx_lrn_model(shape, size, alpha, beta, bias)
    context = available_registry_context()
    converted = read_onnx_model(model, context, source="lrn.onnx")
    assert sorted(n.op_type for n in converted.nodes) == ["LOCAL_RESPONSE_NORMALIZATION", "TRANSPOSE", "TRANSPOSE"]
    (node,) = [n for n in converted.nodes if n.op_type == "LOCAL_RESPONSE_NORMALIZATION"]
    # ONNX's window: floor((size - 1) / 2) channels before, the rest after; alpha divided by size.
    assert (node.attributes.radius_before, node.attributes.radius_after) == ((size - 1) // 2, size // 2)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    values = (rng.standard_normal(shape) * spread).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    if size % 2:
        session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
        (theirs,) = session.run(None, {"x": values})
    else:  # onnxruntime refuses even sizes ("size_ % 2 == 1"): the spec's formula, in float64
        theirs = onnx_spec_lrn(values, size, alpha, beta, bias)
    np.testing.assert_allclose(ours, theirs, rtol=ONNX_RTOL, atol=ONNX_ATOL * float(np.abs(values).max()))


def test_onnx_lrn_of_another_rank_is_refused() -> None:
    node = helper.make_node("LRN", ["x"], ["y"], name="lrn3", size=3)
    graph = helper.make_graph(
        [node],
        "lrn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, (1, 4, 5))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, (1, 4, 5))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()
    with pytest.raises(UnsupportedOperatorError, match=r'(?s)"lrn3".*rank 3.*NCHW'):
        read_onnx_model(model, available_registry_context(), source="lrn3.onnx")


def litert_options(attributes: LocalResponseNormalizationAttributes) -> schema.LocalResponseNormalizationOptionsT:
    options = schema.LocalResponseNormalizationOptionsT()
    options.radius = attributes.radius_before
    options.bias = attributes.bias
    options.alpha = attributes.alpha
    options.beta = attributes.beta
    return options


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_reference_matches_litert(data: st.DataObject) -> None:
    # TFLite's kernel takes rank 4 (NHWC) and one radius on both sides.
    shape = (data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4)))
    shape += (data.draw(st.integers(1, 24)),)
    attributes = draw_attributes(data, symmetric=True)
    graph = lrn_graph(shape, attributes)
    model = single_op_model(
        graph,
        schema.BuiltinOperator.LOCAL_RESPONSE_NORMALIZATION,
        1,
        schema.BuiltinOptions.LocalResponseNormalizationOptions,
        litert_options(attributes),
    )
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "lrn.tflite")
    (node,) = parsed.nodes
    assert node.attributes == attributes, "LiteRT options did not round-trip"
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    values = (rng.standard_normal(shape) * data.draw(st.sampled_from([0.5, 3.0, 20.0]))).astype(np.float32)
    (ours,) = ReferenceInterpreter(parsed, REGISTRY).run([values])
    interpreter = Interpreter(model_content=model)
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], values)
    interpreter.invoke()
    theirs = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    np.testing.assert_allclose(ours, theirs, rtol=LITERT_RTOL, atol=0)


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    graph = lrn_graph(draw_shape(data), draw_attributes(data, symmetric=False))
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=C_ULPS)


def test_c_kernel_matches_reference_on_wide_values() -> None:
    # Squares that overflow to inf (the factor 0, or NaN for an inf input) and a window wider than the axis.
    attributes = LocalResponseNormalizationAttributes(radius_before=7, radius_after=2, bias=1.0, alpha=1.0, beta=0.75)
    builder = GraphBuilder()
    values = np.array([[1e20, -3.0, 0.0, 2e-20, 5.0], [np.inf, 1.0, -1.0, 0.5, -0.0]], np.float32)
    x = builder.tensor("input", DType.FLOAT32, values.shape)
    y = builder.tensor("output", DType.FLOAT32, values.shape)
    graph = builder.single_node_graph("LOCAL_RESPONSE_NORMALIZATION", [x], [y], attributes)
    (ours,) = ReferenceInterpreter(graph, REGISTRY).run([values])
    assert ours[0, 0] == 0.0 and np.isnan(ours[1, 0])
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=C_ULPS)


def test_last_axis_of_size_zero_is_refused_naming_the_node() -> None:
    # The kernel's rows are element_count / depth: a depth of 0 is refused by the schema and by the
    # check the reference and the C emitter run, each naming the node.
    graph = lrn_graph((3, 0), LocalResponseNormalizationAttributes())
    (node,) = graph.nodes
    with pytest.raises(ShapeInferenceError, match=rf"(?s){re.escape(node.describe())}.*shape \[3, 0\] has no channels"):
        validate_graph(graph, REGISTRY)
    with pytest.raises(
        UnsupportedTensorError, match=rf"(?s){re.escape(node.describe())}.*no channels on its last axis"
    ):
        check_local_response_normalization(graph, node)
