# SPDX-License-Identifier: Apache-2.0
"""CAST between every supported pair of types: reference == TFLite Micro, C kernel == reference."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph
from opbridge.ops.cast.attributes import CastAttributes
from opbridge.ops.cast.reference import CAST_INPUT_DTYPES, CAST_OUTPUT_DTYPES, cast_values

REGISTRY = available_operator_registry()
# The audio front end's casts first, then every other pair.
MODEL_PAIRS = [
    (DType.UINT32, DType.INT32),
    (DType.INT32, DType.UINT32),
    (DType.INT16, DType.INT32),
    (DType.INT32, DType.INT8),
]
PAIRS = MODEL_PAIRS + [
    (source, target)
    for source in CAST_INPUT_DTYPES
    for target in CAST_OUTPUT_DTYPES
    if (source, target) not in MODEL_PAIRS
]


def cast_graph(shape: tuple[int, ...], source: DType, target: DType) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("x", source, shape)
    y = builder.tensor("y", target, shape)
    return builder.single_node_graph("CAST", [x], [y], CastAttributes(out_data_type=target))


def draw_graph(data: st.DataObject, pair: tuple[DType, DType]) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 4))))
    return cast_graph(shape, *pair)


def test_narrowing_wraps_around() -> None:
    values = np.array([300, -1, 128, -129, 2**31 - 1, -(2**31)], dtype=np.int32)
    assert cast_values(values, DType.INT8).tolist() == [44, -1, -128, 127, -1, 0]
    assert cast_values(values, DType.UINT32).tolist() == [300, 2**32 - 1, 128, 2**32 - 129, 2**31 - 1, 2**31]
    assert cast_values(np.array([2**32 - 1, 2**31], dtype=np.uint32), DType.INT32).tolist() == [-1, -(2**31)]


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=lambda d: d.value)
@settings(max_examples=4)
@given(data=st.data())
def test_reference_matches_tflite_micro(data: st.DataObject, source: DType, target: DType) -> None:
    check_reference_matches_tflite_micro(draw_graph(data, (source, target)), REGISTRY, schema.BuiltinOperator.CAST, 3)


@settings(max_examples=15)
@given(st.data(), st.sampled_from(PAIRS))
def test_c_kernel_matches_reference(data: st.DataObject, pair: tuple[DType, DType]) -> None:
    check_c_matches_reference(draw_graph(data, pair), REGISTRY)


def test_c_kernels_of_every_pair() -> None:
    # One module per pair, on a shape with room for both seeded halves' extremes.
    for pair in PAIRS:
        check_c_matches_reference(cast_graph((3, 17), *pair), REGISTRY, cases=4)


def test_float_inputs_are_rejected() -> None:
    graph = cast_graph((4,), DType.FLOAT32, DType.INT32)
    with pytest.raises(UnsupportedTensorError, match=r"node 0 \(CAST"):
        check_c_matches_reference(graph, REGISTRY)
