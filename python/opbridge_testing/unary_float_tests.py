# SPDX-License-Identifier: Apache-2.0
"""The op tests the element-wise float32 unary ops share (ABS, NEG, SQRT, EXP, LOG, FLOOR, RSQRT;
ops/<op>/op_test.py): drawn float32 values against TFLite Micro, the C kernel against the reference on a graph
that appends the edge values (and their negations) to the golden program's seeded input, int8 refused by the
schema, and the ONNX operator against onnxruntime.

Each op_test.py binds the returned test functions by name, so pytest collects them there, and keeps what is its
own (tolerances, drawn values, extra edge values, other dtypes).
"""

from collections.abc import Callable

import numpy as np
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays
from onnx import TensorProto, helper
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

from opbridge_testing.activation_tests import REGISTRY, unary_graph
from opbridge_testing.operators import available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

# Every float32 class: NaN, the infinities, subnormals, signed zeros, ...
DRAWN_FLOAT32_VALUES = arrays(
    np.float32, array_shapes(min_dims=1, max_dims=4, max_side=6), elements=st.floats(width=32)
)


def edge_values_graph(op_type: str, edge_values: np.ndarray = FLOAT32_EDGE_VALUES) -> Graph:
    """CONCATENATION(x, the edge values and their negations) -> `op_type`: the golden program's seeded x, then
    the edges.

    NaN inputs are left out: constants and expected outputs are C literals, which write every NaN as
    __builtin_nanf("") (0x7FC00000), so a NaN's sign cannot reach the C side intact."""
    edges = np.concatenate([edge_values, -edge_values])
    edges = edges[~np.isnan(edges)]
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, (4,))
    constant = builder.tensor("edges", DType.FLOAT32, edges.shape, data=edges)
    joined = builder.tensor("joined", DType.FLOAT32, (4 + edges.size,))
    y = builder.tensor("y", DType.FLOAT32, (4 + edges.size,))
    nodes = [
        Node(0, "join", "CONCATENATION", [x, constant], [joined], ConcatenationAttributes(axis=0)),
        Node(1, "under_test", op_type, [joined], [y], None),
    ]
    return Graph("edges", builder.tensors, nodes, [x], [y])


def unary_float32_tests(
    op_type: str,
    builtin_code: int,
    *,
    float_rtol: float | None,
    c_ulps: int,
    drawn_values: st.SearchStrategy[np.ndarray] = DRAWN_FLOAT32_VALUES,
    edge_values: np.ndarray = FLOAT32_EDGE_VALUES,
) -> tuple[Callable[..., None], ...]:
    """test_drawn_values_match_tflite_micro (10 drawn arrays, within `float_rtol`; None: bit for bit) and
    test_c_kernel_matches_reference_on_edge_values (edge_values_graph, within `c_ulps`)."""

    @settings(max_examples=10, deadline=None)
    @given(drawn_values)
    def test_drawn_values_match_tflite_micro(values: np.ndarray) -> None:
        graph = unary_graph(op_type, DType.FLOAT32, values.shape)
        check_reference_matches_tflite_micro(graph, REGISTRY, builtin_code, 1, float_rtol=float_rtol, inputs=[[values]])

    def test_c_kernel_matches_reference_on_edge_values() -> None:
        check_c_matches_reference(edge_values_graph(op_type, edge_values), REGISTRY, float_ulp_tolerance=c_ulps)

    return test_drawn_values_match_tflite_micro, test_c_kernel_matches_reference_on_edge_values


def int8_refused_test(op_type: str) -> Callable[[], None]:
    """test_int8_is_refused_by_the_schema of a float32-only op."""

    def test_int8_is_refused_by_the_schema() -> None:
        quantization = Quantization((0.1,), (0,))
        graph = unary_graph(op_type, DType.INT8, (4,), quantization, quantization)
        with pytest.raises(ShapeInferenceError, match=rf"is int8; opbridge.{op_type} .* allows T in \{{float32\}}"):
            validate_graph(graph, REGISTRY)

    return test_int8_is_refused_by_the_schema


def onnx_values(edge_values: np.ndarray = FLOAT32_EDGE_VALUES, rows: int = 4) -> np.ndarray:
    """The edge values, their negations, 64 seeded normal values * 4 and 64 seeded uniform in [-104, 89), as
    `rows` rows."""
    return np.concatenate(
        [
            edge_values,
            -edge_values,
            np.random.default_rng(7).standard_normal(64).astype(np.float32) * 4,
            np.random.default_rng(8).uniform(-104.0, 89.0, 64).astype(np.float32),
        ]
    ).reshape(rows, -1)


def check_onnx_matches_onnxruntime(onnx_op: str, op_type: str, values: np.ndarray, max_ulps: int | None = None) -> None:
    """One ONNX `onnx_op` node (opset 17) on `values`: imported as one `op_type` node, run by the reference and by
    onnxruntime; bit for bit (-0.0 and NaN signs too) when `max_ulps` is None, else same NaN positions and the
    rest within `max_ulps`."""
    name = onnx_op.lower()
    node = helper.make_node(onnx_op, ["x"], ["y"], name=name)
    graph = helper.make_graph(
        [node],
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(values.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(values.shape))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == [op_type]
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": values})
    if max_ulps is None:
        np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))
    else:
        nan = np.isnan(ours)
        np.testing.assert_array_equal(nan, np.isnan(theirs))
        np.testing.assert_array_max_ulp(ours[~nan], theirs[~nan], maxulp=max_ulps)
