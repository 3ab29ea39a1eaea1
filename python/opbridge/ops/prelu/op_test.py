# SPDX-License-Identifier: Apache-2.0
"""PRELU on float32 with broadcasting: reference == TFLite Micro bit for bit (drawn shapes, every pair of edge
values), C kernel == reference bit for bit; ONNX PRelu converts (ranks 1 to 4, the slope shapes PyTorch exports)
and equals onnxruntime bit for bit, its C equal to the reference; int8 is refused by the schema."""

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    float32_edge_graph,
)

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import ModelFormatError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Quantization
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

REGISTRY = available_operator_registry()


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(data, "PRELU", DType.FLOAT32, None)
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.PRELU, 1)


@settings(max_examples=8, deadline=None)  # the first example compiles the kernels
@given(st.data())
def test_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
    graph = broadcast_binary_graph(data, "PRELU", DType.FLOAT32, None)
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)


def test_edge_values_match_tflite_micro() -> None:
    # Every pair of edge values, both alpha signs: -0.0 is kept (x >= 0), NaN takes the product, -inf * 0 is NaN.
    edges = FLOAT32_EDGE_VALUES
    check_reference_matches_tflite_micro(
        float32_edge_graph("PRELU", None),
        REGISTRY,
        schema.BuiltinOperator.PRELU,
        1,
        inputs=[[edges.reshape(-1, 1), edges.reshape(1, -1)], [edges.reshape(-1, 1), -edges.reshape(1, -1)]],
    )


def test_c_kernel_on_edge_values_exactly() -> None:
    # Finite edge values (constants; C has no literal for inf or NaN) as input and as alpha, against seeded values.
    finite = FLOAT32_EDGE_VALUES[np.isfinite(FLOAT32_EDGE_VALUES)]
    for constant_first in (True, False):
        builder = GraphBuilder()
        edges = builder.tensor("edges", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
        seeded = builder.tensor("seeded", DType.FLOAT32, (1, 8))
        y = builder.tensor("y", DType.FLOAT32, (finite.size, 8))
        inputs: list[int | None] = [edges, seeded] if constant_first else [seeded, edges]
        check_c_matches_reference(
            builder.single_node_graph("PRELU", inputs, [y], None), REGISTRY, float_ulp_tolerance=0
        )


def test_int8_is_refused_by_the_schema() -> None:
    # TFLite's int8 PRELU reads, and is refused where the converter checks every node.
    quantization = Quantization((0.1,), (0,))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, (2, 3), quantization)
    alpha = builder.tensor("alpha", DType.INT8, (3,), quantization, np.ones(3, np.int8))
    y = builder.tensor("y", DType.INT8, (2, 3), quantization)
    model = single_op_model(builder.single_node_graph("PRELU", [x, alpha], [y], None), schema.BuiltinOperator.PRELU, 1)
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "prelu_int8.tflite")
    with pytest.raises(ShapeInferenceError, match=r"is int8; opbridge.PRELU .* allows T in \{float32\}"):
        validate_graph(parsed, REGISTRY)


def prelu_model(x_shape: tuple[int, ...], slope: np.ndarray | tuple[int, ...]) -> bytes:
    """An ONNX PRelu; `slope` is an initializer (as PyTorch exports it) or, given as a shape, a graph input."""
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))]
    initializers = []
    if isinstance(slope, np.ndarray):
        initializers.append(numpy_helper.from_array(slope, "slope"))
    else:
        inputs.append(helper.make_tensor_value_info("slope", TensorProto.FLOAT, list(slope)))
    graph = helper.make_graph(
        [helper.make_node("PRelu", ["x", "slope"], ["y"], name="prelu")],
        "prelu",
        inputs,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(x_shape))],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


@pytest.mark.parametrize(
    ("x_shape", "slope_shape", "constant"),
    [
        ((2, 3, 4), (3, 1), True),  # PyTorch's PReLU(3) on [N, C, L]
        ((2, 3, 4), (1,), True),  # PReLU() (one slope)
        ((2, 3, 4, 5), (3, 1, 1), True),  # PReLU(3) on [N, C, H, W]
        ((2, 3, 4, 5), (3, 1, 1), False),
        ((7,), (7,), True),
        ((7,), (1,), False),
        ((3, 5), (5,), True),
        ((3, 5), (3, 1), False),
        ((2, 3, 4), (2, 3, 4), False),
        ((1, 4, 4, 3), (1, 1, 3), True),
    ],
)
def test_onnx_prelu_matches_onnxruntime(x_shape: tuple[int, ...], slope_shape: tuple[int, ...], constant: bool) -> None:
    rng = np.random.default_rng(11)
    slope_values = rng.standard_normal(slope_shape).astype(np.float32)
    model = prelu_model(x_shape, slope_values if constant else slope_shape)
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["PRELU"]
    x = (rng.standard_normal(x_shape) * 10).astype(np.float32)
    x.ravel()[:4] = [0.0, -0.0, 1e-45, -1e-45][: x.size]
    feeds = {"x": x} if constant else {"x": x, "slope": slope_values}
    (ours,) = ReferenceInterpreter(converted, context).run(list(feeds.values()))
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, feeds)
    np.testing.assert_array_equal(ours.view(np.uint32), np.asarray(theirs, np.float32).view(np.uint32))
    check_c_matches_reference(converted, REGISTRY, float_ulp_tolerance=0)


def test_onnx_slope_that_does_not_broadcast_to_x_is_refused() -> None:
    # ONNX broadcasts the slope to X only: a slope with more elements than X is an inconsistent model.
    model = prelu_model((3, 1), np.ones((3, 4), np.float32))
    with pytest.raises(ModelFormatError, match=r"slope shape \[3, 4\] does not broadcast to X's \[3, 1\]"):
        read_onnx_model(model, available_registry_context())
