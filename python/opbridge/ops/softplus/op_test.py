# SPDX-License-Identifier: Apache-2.0
"""SOFTPLUS (float32, ONNX only: LiteRT has no such builtin): reference == onnxruntime on drawn values of
every magnitude within 1e-6 relative (one subnormal step absolute), C kernel == reference within C_ULPS on
drawn shapes and on wide and edge values, ONNX Softplus converts to it.

Both compute x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)), so large x give x and very negative x give
exp(x) (0 below the subnormals), never inf or NaN; they differ only in how exp and log1p round (onnxruntime:
Eigen's vectorised float functions; the reference: float64 rounded once; the C kernel: libm's expf and
log1pf). C_ULPS = 2: checked over every float32 against the host's glibc 2.36 (whose log1pf is not
correctly rounded), the C kernel equals the reference on 99.27% of inputs, is one ulp away on 0.72% and two
on 0.007% (small positive x, where log1p(exp(-x)) is near log 2), never more.
"""

import numpy as np
import onnxruntime
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays
from onnx import TensorProto, helper
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import FLOAT32_EDGE_VALUES, GraphBuilder, check_c_matches_reference

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Node
from opbridge.ops.concatenation.attributes import ConcatenationAttributes

REGISTRY = available_operator_registry()
ONNX_RTOL = 1e-6
SMALLEST_SUBNORMAL = 2.0**-149
C_ULPS = 2
# Every float32 class (infinities, NaN, subnormals, up to +-FLT_MAX), the range where softplus is neither 0
# nor x, the range where exp(x) is subnormal, and values near 0.
DRAWN_VALUES = arrays(
    np.float32,
    array_shapes(min_dims=1, max_dims=4, max_side=6),
    elements=st.one_of(
        st.floats(width=32),
        st.floats(-20.0, 20.0, width=32),
        st.floats(-110.0, -80.0, width=32),
        st.floats(-1.0, 1.0, width=32),
    ),
)


def onnx_model(shape: tuple[int, ...]) -> bytes:
    node = helper.make_node("Softplus", ["x"], ["y"], name="softplus")
    graph = helper.make_graph(
        [node],
        "softplus",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def softplus_graph(shape: tuple[int, ...]) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, shape)
    y = builder.tensor("y", DType.FLOAT32, shape)
    return builder.single_node_graph("SOFTPLUS", [x], [y], None)


@settings(max_examples=40, deadline=None)
@given(DRAWN_VALUES)
def test_reference_matches_onnxruntime(values: np.ndarray) -> None:
    model = onnx_model(values.shape)
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["SOFTPLUS"]
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": values})
    assert not np.isnan(ours[~np.isnan(values)]).any(), "a number gave NaN"
    np.testing.assert_array_equal(np.isinf(ours), values == np.inf)  # only +inf gives inf
    # NaN equals NaN; one subnormal step absolute where exp(x) is subnormal (Eigen's exp rounds it its way).
    np.testing.assert_allclose(ours, theirs, rtol=ONNX_RTOL, atol=SMALLEST_SUBNORMAL)


def test_large_magnitudes_give_x_and_zero() -> None:
    values = np.array([100.0, 1e10, 3.4028235e38, np.inf, -100.0, -1e10, -3.4028235e38, -np.inf], np.float32)
    (ours,) = ReferenceInterpreter(softplus_graph(values.shape), REGISTRY).run([values])
    np.testing.assert_array_equal(ours[:4], values[:4])
    np.testing.assert_array_equal(ours[5:], np.zeros(3, np.float32))
    assert 0.0 < ours[4] < 1e-43  # exp(-100), a subnormal, not 0


@settings(max_examples=6, deadline=None)
@given(array_shapes(min_dims=1, max_dims=4, max_side=6))
def test_c_kernel_matches_reference(shape: tuple[int, ...]) -> None:
    check_c_matches_reference(softplus_graph(shape), REGISTRY, float_ulp_tolerance=C_ULPS)


def test_c_kernel_matches_reference_on_wide_and_edge_values() -> None:
    """CONCATENATION(x, constant values) -> SOFTPLUS: the golden program's seeded x, then the edge values
    and values of every magnitude, both signs."""
    rng = np.random.default_rng(9)
    magnitudes = np.exp(rng.uniform(-100.0, 88.0, 64))
    constant_values = np.concatenate(
        [
            FLOAT32_EDGE_VALUES,
            -FLOAT32_EDGE_VALUES,
            rng.uniform(-30.0, 30.0, 96),
            rng.uniform(-110.0, -80.0, 32),
            magnitudes,
            -magnitudes,
        ]
    ).astype(np.float32)
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, (4,))
    constant = builder.tensor("values", DType.FLOAT32, constant_values.shape, data=constant_values)
    joined = builder.tensor("joined", DType.FLOAT32, (4 + constant_values.size,))
    y = builder.tensor("y", DType.FLOAT32, (4 + constant_values.size,))
    nodes = [
        Node(0, "join", "CONCATENATION", [x, constant], [joined], ConcatenationAttributes(axis=0)),
        Node(1, "under_test", "SOFTPLUS", [joined], [y], None),
    ]
    graph = Graph("wide_values", builder.tensors, nodes, [x], [y])
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=C_ULPS)


def test_no_litert_builtin() -> None:
    assert REGISTRY["SOFTPLUS"].litert_builtin_code is None
