# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE on ranks 1 to 4 with drawn begins, ends, strides and masks:
reference == TFLite Micro, C kernel == reference; unsupported slices are refused by name."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.errors import OpbridgeError, UnsupportedOperatorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.strided_slice.attributes import StridedSliceAttributes
from opbridge.ops.strided_slice.reference import compute_plan

REGISTRY = available_operator_registry()
DTYPES = st.sampled_from([DType.INT32, DType.INT8, DType.INT16, DType.FLOAT32, DType.BOOL])


def slice_graph(
    dtype: DType,
    shape: tuple[int, ...],
    begins: list[int],
    ends: list[int],
    strides: list[int],
    attributes: StridedSliceAttributes,
    output_shape: tuple[int, ...] | None = None,
    constant_begin: bool = True,
) -> Graph:
    if output_shape is None:
        probe = Node(0, "probe", "STRIDED_SLICE", [], [], attributes)
        output_shape = compute_plan(probe, shape, begins, ends, strides).output_shape
    rank = len(shape)
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape)
    begin_data = np.array(begins, dtype=np.int32) if constant_begin else None
    begin = builder.tensor("begin", DType.INT32, (rank,), data=begin_data)
    end = builder.tensor("end", DType.INT32, (rank,), data=np.array(ends, dtype=np.int32))
    stride = builder.tensor("strides", DType.INT32, (rank,), data=np.array(strides, dtype=np.int32))
    y = builder.tensor("y", dtype, output_shape)
    return builder.single_node_graph("STRIDED_SLICE", [x, begin, end, stride], [y], attributes)


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(data.draw(st.integers(1, 4))))
    begins, ends, strides = [], [], []
    begin_mask = end_mask = shrink_mask = 0
    for axis, size in enumerate(shape):
        if data.draw(st.integers(0, 4)) == 0:
            # A shrunk axis: one element inside the axis, positive stride (else TFLite Micro writes nothing).
            shrink_mask |= 1 << axis
            begins.append(data.draw(st.integers(-size, size - 1)))
            ends.append(data.draw(st.integers(-size - 2, size + 2)))
            strides.append(data.draw(st.integers(1, 3)))
        else:
            begins.append(data.draw(st.integers(-size - 2, size + 2)))
            ends.append(data.draw(st.integers(-size - 2, size + 2)))
            strides.append(data.draw(st.sampled_from([-3, -2, -1, 1, 2, 3])))
        begin_mask |= data.draw(st.booleans()) << axis
        end_mask |= data.draw(st.booleans()) << axis
    attributes = StridedSliceAttributes(begin_mask=begin_mask, end_mask=end_mask, shrink_axis_mask=shrink_mask)
    probe = Node(0, "probe", "STRIDED_SLICE", [], [], attributes)
    plan = compute_plan(probe, shape, begins, ends, strides)
    assume(all(count > 0 for count in plan.counts))  # TFLite Micro has no empty tensors to compare
    return slice_graph(dtype, shape, begins, ends, strides, attributes, plan.output_shape)


def options_of(graph: Graph) -> schema.StridedSliceOptionsT:
    attributes = graph.nodes[0].attributes
    options = schema.StridedSliceOptionsT()
    options.beginMask = attributes.begin_mask
    options.endMask = attributes.end_mask
    options.shrinkAxisMask = attributes.shrink_axis_mask
    return options


def check_with_tflite_micro(graph: Graph) -> None:
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.STRIDED_SLICE,
        1,
        schema.BuiltinOptions.StridedSliceOptions,
        options_of(graph),
    )


@settings(max_examples=60)
@given(st.data(), DTYPES)
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    check_with_tflite_micro(draw_graph(data, dtype))


@settings(max_examples=40)
@given(st.data(), DTYPES)
def test_c_kernel_matches_reference(data: st.DataObject, dtype: DType) -> None:
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY)


def test_audio_front_end_slice() -> None:
    # The TFLM audio preprocessor's slice: int32[257][5:241].
    graph = slice_graph(DType.INT32, (257,), [5], [241], [1], StridedSliceAttributes())
    assert graph.output_tensors()[0].shape == (236,)
    check_with_tflite_micro(graph)
    check_c_matches_reference(graph, REGISTRY)


@pytest.mark.parametrize(
    ("attributes", "strides", "begins", "message"),
    [
        (StridedSliceAttributes(ellipsis_mask=1), [1, 1], [0, 0], "ellipsis_mask"),
        (StridedSliceAttributes(new_axis_mask=2), [1, 1], [0, 0], "new_axis_mask"),
        (StridedSliceAttributes(offset=True), [1, 1], [0, 0], "offset"),
        (StridedSliceAttributes(shrink_axis_mask=1), [-1, 1], [0, 0], "shrunk"),
        (StridedSliceAttributes(shrink_axis_mask=2), [1, 1], [0, 5], "shrunk"),
    ],
)
def test_unsupported_slices_are_refused(
    attributes: StridedSliceAttributes, strides: list[int], begins: list[int], message: str
) -> None:
    graph = slice_graph(DType.INT32, (3, 4), begins, [3, 4], strides, StridedSliceAttributes(), (3, 4))
    graph.nodes[0].attributes = attributes
    with pytest.raises(UnsupportedOperatorError, match=rf"node 0 \(STRIDED_SLICE.*{message}"):
        check_c_matches_reference(graph, REGISTRY)


def test_run_time_begin_is_refused() -> None:
    attributes = StridedSliceAttributes()
    graph = slice_graph(DType.INT32, (6,), [1], [5], [1], attributes, (4,), constant_begin=False)
    with pytest.raises(OpbridgeError, match=r"node 0 \(STRIDED_SLICE.*begin.*run time"):
        check_c_matches_reference(graph, REGISTRY)
