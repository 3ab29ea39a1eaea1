# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL (float32, int8, int16) on drawn shapes, broadcast batch dimensions, adj_x/adj_y and quantization
(affine int8 activations, a constant rhs symmetric as TFLite's converter writes weights): reference == TFLite Micro
bit for bit, C module == reference bit for bit (float32 summed in the same order); typed errors for what TFLite Micro
refuses."""

import pathlib
import tempfile

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.aot.compile import compile_graph
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.batch_matmul.attributes import BatchMatMulAttributes

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.BATCH_MATMUL
VERSIONS = {DType.FLOAT32: 1, DType.INT8: 2, DType.INT16: 3}


def stored(shape: tuple[int, ...], adjoint: bool) -> tuple[int, ...]:
    return (*shape[:-2], shape[-1], shape[-2]) if adjoint else shape


def draw_graph(data: st.DataObject, dtype: DType | None = None) -> Graph:
    dtype = dtype or data.draw(st.sampled_from([DType.FLOAT32, DType.INT8, DType.INT16]))
    adj_x, adj_y = data.draw(st.booleans()), data.draw(st.booleans())
    rows, depth, cols = (data.draw(st.integers(1, 5)) for _ in range(3))
    batch = tuple(data.draw(st.integers(1, 3)) for _ in range(data.draw(st.integers(0, 3))))
    lhs_batch = batch[len(batch) - data.draw(st.integers(0, len(batch))) :]
    rhs_batch = batch[len(batch) - data.draw(st.integers(0, len(batch))) :]
    lhs_batch = tuple(1 if data.draw(st.booleans()) else d for d in lhs_batch)
    rhs_batch = tuple(1 if data.draw(st.booleans()) else d for d in rhs_batch)
    output_rank = max(len(lhs_batch), len(rhs_batch))
    extended = [(1,) * (output_rank - len(b)) + b for b in (lhs_batch, rhs_batch)]
    out_batch = tuple(max(a, b) for a, b in zip(*extended, strict=True))
    lhs_shape = stored((*lhs_batch, rows, depth), adj_x)
    rhs_shape = stored((*rhs_batch, depth, cols), adj_y)
    constant_rhs = data.draw(st.booleans())
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    quantizations: list[Quantization | None] = [None, None, None]
    rhs_data = None
    if dtype is DType.FLOAT32:
        if constant_rhs:
            rhs_data = rng.standard_normal(rhs_shape).astype(np.float32)
    else:
        zero = dtype is DType.INT16
        lhs_q = data.draw(strategies.per_tensor(0.005, 0.5))
        lhs_q = Quantization(lhs_q.scales, (0,) if zero else lhs_q.zero_points)
        if constant_rhs or zero:  # weights: symmetric
            rhs_q = Quantization((data.draw(strategies.scales(1e-3, 0.05)),), (0,))
        else:
            rhs_q = data.draw(strategies.per_tensor(0.005, 0.5))
        typical = lhs_q.scale * rhs_q.scale * depth * (256.0 if zero else 1.0)
        output_scale = float(np.float32(typical * data.draw(st.floats(0.5, 60.0))))
        output_zero = 0 if zero else data.draw(st.integers(-20, 20))
        quantizations = [lhs_q, rhs_q, Quantization((output_scale,), (output_zero,))]
        if constant_rhs:
            info = np.iinfo(dtype.numpy)
            rhs_data = rng.integers(-info.max, info.max, size=rhs_shape, endpoint=True).astype(dtype.numpy)
    builder = GraphBuilder()
    x = builder.tensor("lhs", dtype, lhs_shape, quantizations[0])
    w = builder.tensor("rhs", dtype, rhs_shape, quantizations[1], data=rhs_data)
    y = builder.tensor("output", dtype, (*out_batch, rows, cols), quantizations[2])
    return builder.single_node_graph("BATCH_MATMUL", [x, w], [y], BatchMatMulAttributes(adj_x=adj_x, adj_y=adj_y))


def options(graph: Graph) -> schema.BatchMatMulOptionsT:
    packed = schema.BatchMatMulOptionsT()
    packed.adjX = graph.nodes[0].attributes.adj_x
    packed.adjY = graph.nodes[0].attributes.adj_y
    return packed


def check_tflite_micro(graph: Graph) -> None:
    version = VERSIONS[graph.tensors[0].dtype]
    options_type = schema.BuiltinOptions.BatchMatMulOptions
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, version, options_type, options(graph))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_tflite_micro(draw_graph(data))


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_int16_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_tflite_micro(draw_graph(data, DType.INT16))


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_c_module_matches_reference(data: st.DataObject) -> None:
    graph = draw_graph(data)
    exact = 0 if graph.tensors[0].dtype is DType.FLOAT32 else None  # integers: byte for byte anyway
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=exact)


def test_float32_sums_in_k_order() -> None:
    # 1e8 + 1 - 1e8 is 0 in float32 summed left to right (np.matmul may pair the terms differently).
    builder = GraphBuilder()
    x = builder.tensor("lhs", DType.FLOAT32, (1, 3))
    w = builder.tensor("rhs", DType.FLOAT32, (3, 1), data=np.array([[1e8], [1.0], [-1e8]], np.float32))
    y = builder.tensor("output", DType.FLOAT32, (1, 1))
    graph = builder.single_node_graph("BATCH_MATMUL", [x, w], [y], BatchMatMulAttributes())
    inputs = [[np.ones((1, 3), np.float32)]]
    (ours,) = ReferenceInterpreter(graph, REGISTRY).run(inputs[0])
    assert ours[0, 0] == 0.0
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, inputs=inputs)
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)


def test_int8_saturates_at_both_ends() -> None:
    q = Quantization((0.5,), (-3,))
    builder = GraphBuilder()
    x = builder.tensor("lhs", DType.INT8, (2, 4), q)
    w = builder.tensor("rhs", DType.INT8, (4, 2), Quantization((0.5,), (0,)), data=np.full((4, 2), 127, np.int8))
    y = builder.tensor("output", DType.INT8, (2, 2), Quantization((0.01,), (5,)))
    graph = builder.single_node_graph("BATCH_MATMUL", [x, w], [y], BatchMatMulAttributes())
    inputs = [[np.array([[127] * 4, [-128] * 4], np.int8)]]
    (ours,) = ReferenceInterpreter(graph, REGISTRY).run(inputs[0])
    np.testing.assert_array_equal(ours, [[127, 127], [-128, -128]])
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 2, inputs=inputs)


def refused(graph: Graph, values: list[np.ndarray], pattern: str) -> None:
    with pytest.raises(OpbridgeError, match=pattern):
        ReferenceInterpreter(graph, REGISTRY).run(values)
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=pattern):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


def plain_graph(
    lhs: tuple[int, ...],
    rhs: tuple[int, ...],
    output: tuple[int, ...],
    attributes: BatchMatMulAttributes,
    dtype: DType = DType.FLOAT32,
    quantizations: tuple[Quantization | None, ...] = (None, None, None),
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("lhs", dtype, lhs, quantizations[0])
    w = builder.tensor("rhs", dtype, rhs, quantizations[1])
    y = builder.tensor("output", dtype, output, quantizations[2])
    return builder.single_node_graph("BATCH_MATMUL", [x, w], [y], attributes)


@pytest.mark.parametrize(
    ("lhs", "rhs", "attributes", "pattern"),
    [
        ((2, 3), (2, 4), BatchMatMulAttributes(), r"depth 3 \(adj_x=False\).*rhs's 2 \(adj_y=False\)"),
        ((2, 3), (4, 3), BatchMatMulAttributes(adj_x=True, adj_y=True), r"depth 2 \(adj_x=True\).*3 \(adj_y=True\)"),
        ((2, 2, 3), (3, 3, 4), BatchMatMulAttributes(), r"lhs 2 and rhs 3 do not broadcast"),
        ((1, 1, 1, 1, 2, 3), (3, 4), BatchMatMulAttributes(), r"lhs has rank 6; TFLite Micro takes ranks 2 to 5"),
        ((3,), (3, 4), BatchMatMulAttributes(), r"lhs has rank 1"),
    ],
)
def test_shapes_that_do_not_fit_are_refused(
    lhs: tuple[int, ...], rhs: tuple[int, ...], attributes: BatchMatMulAttributes, pattern: str
) -> None:
    graph = plain_graph(lhs, rhs, (2, 4), attributes)
    refused(graph, [np.zeros(lhs, np.float32), np.zeros(rhs, np.float32)], r"batch_matmul_under_test.*" + pattern)


def test_per_channel_rhs_is_refused() -> None:
    q = Quantization((0.1,), (0,))
    per_channel = Quantization((0.1, 0.2), (0, 0), 1)
    graph = plain_graph((2, 3), (3, 2), (2, 2), BatchMatMulAttributes(), DType.INT8, (q, per_channel, q))
    refused(graph, [np.zeros((2, 3), np.int8), np.zeros((3, 2), np.int8)], r"rhs .* needs per-tensor quantization")


def test_int16_zero_points_must_be_zero() -> None:
    q, shifted = Quantization((0.1,), (0,)), Quantization((0.1,), (3,))
    graph = plain_graph((2, 3), (3, 2), (2, 2), BatchMatMulAttributes(), DType.INT16, (shifted, q, q))
    refused(graph, [np.zeros((2, 3), np.int16), np.zeros((3, 2), np.int16)], r"int16 lhs .* has zero point 3")


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_int16_c_module_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data, DType.INT16), REGISTRY)


@pytest.mark.parametrize(
    ("lhs", "rhs", "attributes"),
    [
        # rhs's third-from-last dimension 1: TFLite Micro folds the lhs's batch into its columns.
        ((2, 3, 4, 5), (1, 5, 2), BatchMatMulAttributes()),
        ((2, 3, 5, 4), (2, 1, 2, 5), BatchMatMulAttributes(adj_x=True, adj_y=True)),
        ((4, 3), (2, 3, 1, 3, 2), BatchMatMulAttributes()),  # rank 2 by rank 5
        ((2, 1, 3, 4, 3), (3, 1, 3, 2), BatchMatMulAttributes()),  # both broadcast
        ((1, 1, 1, 6, 7), (7, 1), BatchMatMulAttributes()),
    ],
)
@pytest.mark.parametrize("dtype", [DType.FLOAT32, DType.INT8])
def test_batch_shapes_match_tflite_micro_and_c(
    lhs: tuple[int, ...], rhs: tuple[int, ...], attributes: BatchMatMulAttributes, dtype: DType
) -> None:
    rng = np.random.default_rng(7)
    quantizations: tuple[Quantization | None, ...] = (None, None, None)
    rhs_data = rng.standard_normal(rhs).astype(np.float32)
    if dtype is DType.INT8:
        quantizations = (Quantization((0.05,), (-7,)), Quantization((0.02,), (0,)), Quantization((0.1,), (4,)))
        rhs_data = rng.integers(-127, 127, size=rhs, endpoint=True).astype(np.int8)
    rows = lhs[-1] if attributes.adj_x else lhs[-2]
    cols = rhs[-2] if attributes.adj_y else rhs[-1]
    rank = max(len(lhs), len(rhs))
    batch = np.broadcast_shapes((1,) * (rank - len(lhs)) + lhs[:-2], (1,) * (rank - len(rhs)) + rhs[:-2])
    for constant in (None, rhs_data):
        builder = GraphBuilder()
        x = builder.tensor("lhs", dtype, lhs, quantizations[0])
        w = builder.tensor("rhs", dtype, rhs, quantizations[1], data=constant)
        y = builder.tensor("output", dtype, (*batch, rows, cols), quantizations[2])
        graph = builder.single_node_graph("BATCH_MATMUL", [x, w], [y], attributes)
        check_tflite_micro(graph)
        check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0 if dtype is DType.FLOAT32 else None)
