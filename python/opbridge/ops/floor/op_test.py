# SPDX-License-Identifier: Apache-2.0
"""FLOOR on float32: reference == TFLite Micro bit for bit (seeded and drawn values, every float32 class among
them, and the edge values: -0.0 stays -0.0, halves, values next to integers, the largest non-integers, NaN and the
infinities), C kernel == reference bit for bit (seeded values and the edge values), ONNX Floor == onnxruntime bit
for bit."""

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays
from onnx import TensorProto, helper
from opbridge_testing.activation_tests import REGISTRY, float32_tests, unary_graph
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.operation import validate_graph
from opbridge.registry import default_registry_context
from opbridge.schemas.schema import ShapeInferenceError

CODE = schema.BuiltinOperator.FLOOR
# Where floor is easy to get wrong: halves, one ulp either side of an integer, the largest float32 non-integers
# (2^23 - 0.5) and the smallest float32 integers without a fraction bit (2^23, 2^24 + 2).
FLOOR_EDGE_VALUES = np.array(
    [0.5, 1.5, 2.5, 0.99999994, 1.0000001, 2.9999998, 8388607.5, 8388608.0, 16777218.0, 1e-30, 123456.79],
    dtype=np.float32,
)
EDGE_VALUES = np.concatenate([FLOAT32_EDGE_VALUES, FLOOR_EDGE_VALUES])
# NumPy's and TFLite Micro's results are exact here: compared bit for bit.
FLOAT_RTOL = None
C_ULPS = 0

(
    test_float32_reference_matches_tflite_micro,
    test_float32_c_kernel_matches_reference,
    test_float32_edge_values_match_tflite_micro,
) = float32_tests("FLOOR", CODE, cases=3, float_rtol=FLOAT_RTOL, float_ulps=C_ULPS)

DRAWN_VALUES = arrays(np.float32, array_shapes(min_dims=1, max_dims=4, max_side=6), elements=st.floats(width=32))


@settings(max_examples=10, deadline=None)
@given(DRAWN_VALUES)
def test_drawn_values_match_tflite_micro(values: np.ndarray) -> None:
    graph = unary_graph("FLOOR", DType.FLOAT32, values.shape)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, float_rtol=FLOAT_RTOL, inputs=[[values]])


def test_floor_edge_values_match_tflite_micro() -> None:
    graph = unary_graph("FLOOR", DType.FLOAT32, FLOOR_EDGE_VALUES.shape)
    inputs = [[FLOOR_EDGE_VALUES], [-FLOOR_EDGE_VALUES]]
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, float_rtol=FLOAT_RTOL, inputs=inputs)


def edge_values_graph() -> Graph:
    """CONCATENATION(x, the edge values and their negations) -> FLOOR: the golden program's seeded x, then the edges.

    NaN inputs are left out: constants and expected outputs are C literals, which write every NaN as
    __builtin_nanf("") (0x7FC00000), so a NaN's sign cannot reach the C side intact."""
    edges = np.concatenate([EDGE_VALUES, -EDGE_VALUES])
    edges = edges[~np.isnan(edges)]
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, (4,))
    constant = builder.tensor("edges", DType.FLOAT32, edges.shape, data=edges)
    joined = builder.tensor("joined", DType.FLOAT32, (4 + edges.size,))
    y = builder.tensor("y", DType.FLOAT32, (4 + edges.size,))
    nodes = [
        Node(0, "join", "CONCATENATION", [x, constant], [joined], ConcatenationAttributes(axis=0)),
        Node(1, "under_test", "FLOOR", [joined], [y], None),
    ]
    return Graph("edges", builder.tensors, nodes, [x], [y])


def test_c_kernel_matches_reference_on_edge_values() -> None:
    check_c_matches_reference(edge_values_graph(), REGISTRY, float_ulp_tolerance=C_ULPS)


def test_int8_is_refused_by_the_schema() -> None:
    quantization = Quantization((0.1,), (0,))
    graph = unary_graph("FLOOR", DType.INT8, (4,), quantization, quantization)
    with pytest.raises(ShapeInferenceError, match=r"is int8; opbridge.FLOOR .* allows T in \{float32\}"):
        validate_graph(graph, REGISTRY)


def test_onnx_floor_matches_onnxruntime() -> None:
    values = np.concatenate(
        [
            EDGE_VALUES,
            -EDGE_VALUES,
            np.random.default_rng(7).standard_normal(64).astype(np.float32) * 4,
            np.random.default_rng(8).uniform(-104.0, 89.0, 64).astype(np.float32),
        ]
    ).reshape(2, -1)
    node = helper.make_node("Floor", ["x"], ["y"], name="floor")
    graph = helper.make_graph(
        [node],
        "floor",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(values.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(values.shape))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    context = default_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["FLOOR"]
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": values})
    np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))  # bits: -0.0 and NaN signs too
