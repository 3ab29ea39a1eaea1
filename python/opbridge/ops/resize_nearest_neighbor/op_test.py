# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR (float32, int8, int16) on drawn shapes, sizes up and down and all four option
combinations: reference == TFLite Micro bit for bit, C module == reference byte for byte; typed errors for a
run-time size, bad sizes and unequal quantization."""

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
from opbridge.ops.resize_nearest_neighbor.attributes import ResizeAttributes
from opbridge.ops.resize_nearest_neighbor.reference import nearest_indices

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.RESIZE_NEAREST_NEIGHBOR


def resize_graph(
    shape: tuple[int, int, int, int],
    size: tuple[int, int],
    attributes: ResizeAttributes,
    dtype: DType = DType.FLOAT32,
    quantization: tuple[Quantization | None, Quantization | None] = (None, None),
    constant: bool = True,
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, quantization[0])
    s = builder.tensor("size", DType.INT32, (2,), None, np.array(size, np.int32) if constant else None)
    y = builder.tensor("output", dtype, (shape[0], size[0], size[1], shape[3]), quantization[1])
    return builder.single_node_graph("RESIZE_NEAREST_NEIGHBOR", [x, s], [y], attributes)


def draw_graph(data: st.DataObject) -> Graph:
    dtype = data.draw(st.sampled_from([DType.FLOAT32, DType.INT8, DType.INT16]))
    shape = (
        data.draw(st.integers(1, 2)),
        data.draw(st.integers(1, 7)),
        data.draw(st.integers(1, 7)),
        data.draw(st.integers(1, 3)),
    )
    size = (data.draw(st.integers(1, 13)), data.draw(st.integers(1, 13)))
    attributes = ResizeAttributes(data.draw(st.booleans()), data.draw(st.booleans()))
    quantization = data.draw(strategies.per_tensor()) if dtype is not DType.FLOAT32 else None
    return resize_graph(shape, size, attributes, dtype, (quantization, quantization))


def version(graph: Graph) -> int:
    a: ResizeAttributes = graph.nodes[0].attributes
    dtype = graph.tensors[0].dtype
    if dtype is DType.INT16:
        return 4
    if a.align_corners or a.half_pixel_centers:
        return 3
    return 2 if dtype is DType.INT8 else 1


def options(graph: Graph) -> schema.ResizeNearestNeighborOptionsT:
    packed = schema.ResizeNearestNeighborOptionsT()
    packed.alignCorners = graph.nodes[0].attributes.align_corners
    packed.halfPixelCenters = graph.nodes[0].attributes.half_pixel_centers
    return packed


def check_against_tflite_micro(graph: Graph) -> None:
    check_reference_matches_tflite_micro(
        graph, REGISTRY, CODE, version(graph), schema.BuiltinOptions.ResizeNearestNeighborOptions, options(graph)
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_graph(data))


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("half_pixel_centers", [False, True])
@pytest.mark.parametrize(("size_in", "size_out"), [(1, 9), (3, 1), (5, 2), (2, 5), (7, 3), (3, 7), (16, 48), (48, 17)])
def test_index_edges_match_tflite_micro(
    align_corners: bool, half_pixel_centers: bool, size_in: int, size_out: int
) -> None:
    # Exact halves and ratios that round in float32, along both axes.
    attributes = ResizeAttributes(align_corners, half_pixel_centers)
    check_against_tflite_micro(resize_graph((1, size_in, size_out, 1), (size_out, size_in), attributes))


@settings(max_examples=16, deadline=None)
@given(st.data())
def test_c_module_matches_reference(data: st.DataObject) -> None:
    graph = draw_graph(data)
    exact = 0 if graph.tensors[0].dtype is DType.FLOAT32 else None  # integers: byte for byte anyway
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=exact)


def test_align_corners_rounds_half_away_from_zero() -> None:
    # 3 -> 5 aligned: scale 0.5, positions 0, 0.5, 1, 1.5, 2 -> 0, 1, 1, 2, 2 (not banker's 0, 0, 1, 2, 2).
    np.testing.assert_array_equal(nearest_indices(3, 5, True, False), [0, 1, 1, 2, 2])
    # 3 -> 5 not aligned: floor(i * 0.6) = 0, 0, 1, 1, 2.
    np.testing.assert_array_equal(nearest_indices(3, 5, False, False), [0, 0, 1, 1, 2])


def test_run_time_size_is_refused() -> None:
    graph = resize_graph((1, 2, 2, 1), (4, 4), ResizeAttributes(), constant=False)
    with pytest.raises(OpbridgeError, match=r"node 0 \(RESIZE_NEAREST_NEIGHBOR.*size.*run time"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 2, 2, 1), np.float32), np.array([4, 4], np.int32)])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=r"size.*run time"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


@pytest.mark.parametrize("size", [(0, 3), (3, -1)])
def test_sizes_below_one_are_refused(size: tuple[int, int]) -> None:
    graph = resize_graph((1, 2, 2, 1), (4, 4), ResizeAttributes())
    graph.tensors[1].data = np.array(size, np.int32)
    with pytest.raises(OpbridgeError, match=r"node 0 \(RESIZE_NEAREST_NEIGHBOR.*size.*>= 1"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 2, 2, 1), np.float32)])


def test_unequal_int8_quantization_is_refused() -> None:
    quantization = (Quantization((0.1,), (3,)), Quantization((0.2,), (3,)))
    graph = resize_graph((1, 2, 2, 1), (3, 3), ResizeAttributes(), DType.INT8, quantization)
    with pytest.raises(OpbridgeError, match=r"node 0 \(RESIZE_NEAREST_NEIGHBOR.*quantization differ"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 2, 2, 1), np.int8)])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=r"quantization differ"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)
