# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE on drawn shapes, permutations and element types: reference == TFLite Micro, C kernel == reference."""

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph
from opbridge.ops.transpose.emit_c import transpose_lattice
from opbridge.ops.transpose.reference import TRANSPOSE_DTYPES

REGISTRY = available_operator_registry()
# What TFLite Micro's TRANSPOSE takes: float32, int8 and int16, 1-D to 5-D.
TFLITE_MICRO_DTYPES = (DType.FLOAT32, DType.INT8, DType.INT16)


def draw_graph(data: st.DataObject, dtypes: tuple[DType, ...], min_rank: int, max_rank: int) -> Graph:
    dtype = data.draw(st.sampled_from(dtypes))
    rank = data.draw(st.integers(min_rank, max_rank))
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(rank))
    perm = data.draw(st.permutations(range(rank)))
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantization)
    p = builder.tensor("perm", DType.INT32, (rank,), None, np.array(perm, np.int32))
    y = builder.tensor("y", dtype, tuple(shape[axis] for axis in perm), quantization)
    return builder.single_node_graph("TRANSPOSE", [x, p], [y], None)


def litert_version(graph: Graph) -> int:
    """TFLite's TRANSPOSE version for the input (op_version.cc)."""
    x = graph.tensors[graph.inputs[0]]
    if len(x.shape) > 5:
        return 6
    if x.dtype is DType.INT16:
        return 5
    if len(x.shape) > 4:
        return 4
    return {DType.BOOL: 3, DType.INT8: 2}.get(x.dtype, 1)


@settings(max_examples=40)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data, TFLITE_MICRO_DTYPES, 1, 5)
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.TRANSPOSE, litert_version(graph))


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_equals_reference(data: st.DataObject) -> None:
    """Every element type the C backend has, ranks 0 to 6."""
    graph = draw_graph(data, TRANSPOSE_DTYPES, 0, 6)
    exact = 0 if graph.tensors[graph.inputs[0]].dtype is DType.FLOAT32 else None  # others: byte for byte anyway
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=exact)


def test_the_lattice_merges_contiguous_axes_and_drops_ones() -> None:
    # NHWC -> NCHW of [1, 4, 5, 3]: C's stride 1, then H * W as one axis of stride 3.
    assert transpose_lattice((1, 4, 5, 3), (0, 3, 1, 2)) == [(3, 1), (20, 3)]
    assert transpose_lattice((2, 3, 4), (0, 1, 2)) == [(24, 1)]
    assert transpose_lattice((1, 1), (1, 0)) == []
