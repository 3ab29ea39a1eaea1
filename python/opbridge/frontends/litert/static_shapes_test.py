# SPDX-License-Identifier: Apache-2.0
"""Static shape arithmetic folds at conversion time: TensorFlow's SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE becomes
one RESHAPE with a constant shape, the values unchanged; nothing that does not come from a SHAPE is folded."""

import numpy as np

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert.static_shapes import fold_static_shapes
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.operation import validate_graph
from opbridge.ops.pack.attributes import PackAttributes
from opbridge.ops.shape.attributes import ShapeAttributes
from opbridge.ops.strided_slice.attributes import StridedSliceAttributes

REGISTRY = build_builtin_registry()


def _constant(index: int, name: str, values: list[int]) -> Tensor:
    data = np.array(values, dtype=np.int32)
    return Tensor(index, name, DType.INT32, data.shape, None, data)


def keras_flatten(shape_is_graph_output: bool = False) -> Graph:
    """x [1, 4, 3, 2] -> SHAPE -> STRIDED_SLICE (the batch) -> PACK with 24 -> RESHAPE x to [1, 24], then RELU."""
    tensors = [
        Tensor(0, "x", DType.FLOAT32, (1, 4, 3, 2)),
        Tensor(1, "shape", DType.INT32, (4,)),
        _constant(2, "begin", [0]),
        _constant(3, "end", [1]),
        _constant(4, "strides", [1]),
        Tensor(5, "batch", DType.INT32, ()),
        Tensor(6, "features", DType.INT32, (), None, np.array(24, dtype=np.int32)),
        Tensor(7, "new_shape", DType.INT32, (2,)),
        Tensor(8, "flat", DType.FLOAT32, (1, 24)),
        Tensor(9, "y", DType.FLOAT32, (1, 24)),
    ]
    nodes = [
        Node(0, "shape", "SHAPE", [0], [1], ShapeAttributes()),
        Node(1, "slice", "STRIDED_SLICE", [1, 2, 3, 4], [5], StridedSliceAttributes(shrink_axis_mask=1)),
        Node(2, "pack", "PACK", [5, 6], [7], PackAttributes(values_count=2)),
        Node(3, "reshape", "RESHAPE", [0, 7], [8], None),
        Node(4, "relu", "RELU", [8], [9], None),
    ]
    outputs = [9, 1] if shape_is_graph_output else [9]
    return Graph("flatten", tensors, nodes, [0], outputs)


def test_shape_arithmetic_folds_into_the_reshapes_constant_shape() -> None:
    graph = keras_flatten()
    folded = fold_static_shapes(graph, REGISTRY)
    validate_graph(folded, REGISTRY)
    assert [node.op_type for node in folded.nodes] == ["RESHAPE", "RELU"]
    new_shape = folded.tensor(folded.nodes[0].inputs[1])
    assert new_shape.is_constant and new_shape.data.tolist() == [1, 24]
    x = np.random.default_rng(0).normal(size=(1, 4, 3, 2)).astype(np.float32)
    (before,) = ReferenceInterpreter(graph, REGISTRY).run([x])
    (after,) = ReferenceInterpreter(folded, REGISTRY).run([x])
    assert np.array_equal(before, after)


def test_a_shape_that_is_a_graph_output_stays_computed() -> None:
    folded = fold_static_shapes(keras_flatten(shape_is_graph_output=True), REGISTRY)
    assert [node.op_type for node in folded.nodes] == ["SHAPE", "STRIDED_SLICE", "PACK", "RESHAPE", "RELU"]


def test_a_graph_without_shape_is_returned_unchanged() -> None:
    graph = keras_flatten()
    graph.nodes = graph.nodes[3:]
    graph.tensors[7] = _constant(7, "new_shape", [1, 24])
    assert fold_static_shapes(graph, REGISTRY) is graph
