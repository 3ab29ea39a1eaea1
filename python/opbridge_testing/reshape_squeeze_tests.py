# SPDX-License-Identifier: Apache-2.0
"""The op tests RESHAPE, SQUEEZE and EXPAND_DIMS share (their folders' op_test.py): int8 (drawn quantization),
int16, int32 and float32 on drawn shapes: reference == TFLite Micro, C module == reference (bit for bit: the bytes
are copied).
"""

from collections.abc import Callable
from typing import Any

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge.backends.c.memory_plan import plan_memory
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.definition import aliases_input
from opbridge.ops.squeeze.attributes import SqueezeAttributes

from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

REGISTRY = available_operator_registry()


def reshape_graph(
    data: st.DataObject, shape: tuple[int, ...], dtype: DType, quantization: Quantization | None
) -> Graph:
    """RESHAPE of `shape` to its flattening or its reversal, the shape input as written (sometimes with its one
    -1 to infer), as in the audio front end."""
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, quantization)
    new_shape = (int(np.prod(shape)),) if data.draw(st.booleans()) else tuple(reversed(shape))
    written = list(new_shape)
    if data.draw(st.booleans()):
        written[data.draw(st.integers(0, len(written) - 1))] = -1
    target = builder.tensor("shape", DType.INT32, (len(written),), None, np.array(written, dtype=np.int32))
    y = builder.tensor("output", dtype, new_shape, quantization)
    return builder.single_node_graph("RESHAPE", [x, target], [y], None)


def squeeze_graph(
    data: st.DataObject, shape: tuple[int, ...], dtype: DType, quantization: Quantization | None
) -> Graph:
    """SQUEEZE of `shape` with a 1 drawn in after each dimension: some of the size-1 dimensions by index
    (negative or not), or none named: all of them."""
    builder = GraphBuilder()
    with_ones = tuple(d for size in shape for d in ((size, 1) if data.draw(st.booleans()) else (size,)))
    x = builder.tensor("input", dtype, with_ones, quantization)
    ones = [axis for axis, size in enumerate(with_ones) if size == 1]
    chosen = data.draw(st.lists(st.sampled_from(ones), unique=True)) if ones else []
    rank = len(with_ones)
    squeeze_dims = tuple(axis - rank if data.draw(st.booleans()) else axis for axis in chosen)
    kept = [size for axis, size in enumerate(with_ones) if (axis not in chosen if chosen else size != 1)]
    y = builder.tensor("output", dtype, tuple(kept) or (1,), quantization)
    return builder.single_node_graph("SQUEEZE", [x], [y], SqueezeAttributes(squeeze_dims))


def expand_dims_graph(
    data: st.DataObject, shape: tuple[int, ...], dtype: DType, quantization: Quantization | None
) -> Graph:
    """EXPAND_DIMS of `shape` at a drawn axis in [-rank-1, rank] (negative counts from the end), the axis an int32
    constant, a scalar or a one-element vector (TensorFlow's converter writes a scalar)."""
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, quantization)
    rank = len(shape)
    axis = data.draw(st.integers(-rank - 1, rank))
    axis_shape: tuple[int, ...] = data.draw(st.sampled_from([(), (1,)]))
    axis_index = builder.tensor("axis", DType.INT32, axis_shape, None, np.full(axis_shape, axis, np.int32))
    position = axis + rank + 1 if axis < 0 else axis
    y = builder.tensor("output", dtype, (*shape[:position], 1, *shape[position:]), quantization)
    return builder.single_node_graph("EXPAND_DIMS", [x, axis_index], [y], None)


# SQUEEZE may insert a 1 after each dimension: at most rank 6, the emitted API's limit.
GRAPHS = {
    "RESHAPE": (reshape_graph, 4),
    "SQUEEZE": (squeeze_graph, 3),
    "EXPAND_DIMS": (expand_dims_graph, 4),
}
# The integer types each op takes besides float32 (TFLite Micro's EXPAND_DIMS has no int32).
INTEGER_DTYPES = {
    "RESHAPE": [DType.INT8, DType.INT16, DType.INT32],
    "SQUEEZE": [DType.INT8, DType.INT16, DType.INT32],
    "EXPAND_DIMS": [DType.INT8, DType.INT16],
}


def litert_options(graph: Graph) -> tuple[int, Any]:
    """The node's LiteRT options type and options (RESHAPE: none, its shape is an input)."""
    if graph.nodes[0].op_type == "SQUEEZE":
        options = schema.SqueezeOptionsT()
        options.squeezeDims = list(graph.nodes[0].attributes.squeeze_dims)
        return schema.BuiltinOptions.SqueezeOptions, options
    return 0, None


def reshape_squeeze_tests(op_type: str, builtin_code: int) -> tuple[Callable[..., None], ...]:
    """The three test functions of RESHAPE, SQUEEZE or EXPAND_DIMS, for the op's op_test.py to bind by name."""
    build_graph, max_rank = GRAPHS[op_type]
    int_dtypes = st.sampled_from(INTEGER_DTYPES[op_type])
    all_dtypes = st.sampled_from([*INTEGER_DTYPES[op_type], DType.FLOAT32])

    def draw_graph(data: st.DataObject, dtypes: st.SearchStrategy[DType]) -> Graph:
        shape = tuple(data.draw(st.integers(1, 5)) for _ in range(data.draw(st.integers(1, max_rank))))
        # int8 quantized; int16, int32 and float32 plain (the audio front end reshapes int16).
        dtype = data.draw(dtypes)
        quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
        return build_graph(data, shape, dtype, quantization)

    def check_c_module_copies(graph: Graph, float_ulp_tolerance: int | None = None) -> None:
        # A graph input is never aliased to a graph output (the caller owns both
        # views), so this is the copy path; memory_plan_test covers aliasing.
        plan = plan_memory(
            graph, aliasing_nodes=[n.index for n in graph.nodes if aliases_input(REGISTRY.get(n.op_type))]
        )
        assert plan.offset_of(graph.inputs[0]) != plan.offset_of(graph.outputs[0])
        check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=float_ulp_tolerance)

    @settings(max_examples=10)
    @given(st.data())
    def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
        graph = draw_graph(data, all_dtypes)
        options_type, options = litert_options(graph)
        check_reference_matches_tflite_micro(graph, REGISTRY, builtin_code, 1, options_type, options)

    @settings(max_examples=3)
    @given(st.data())
    def test_c_module_copies_and_matches_reference(data: st.DataObject) -> None:
        check_c_module_copies(draw_graph(data, int_dtypes))

    @settings(max_examples=3)
    @given(st.data())
    def test_float32_c_module_copies_and_matches_reference_exactly(data: st.DataObject) -> None:
        check_c_module_copies(draw_graph(data, st.just(DType.FLOAT32)), float_ulp_tolerance=0)

    return (
        test_reference_matches_tflite_micro,
        test_c_module_copies_and_matches_reference,
        test_float32_c_module_copies_and_matches_reference_exactly,
    )
