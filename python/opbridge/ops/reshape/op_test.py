"""RESHAPE and SQUEEZE on int8, int16, int32 and float32: reference == TFLite Micro, C module == reference
(bit for bit: the bytes are copied)."""

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.backends.c.memory_plan import plan_memory
from opbridge.ir import DType, Graph
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.squeeze.attributes import SqueezeAttributes

REGISTRY = build_builtin_registry()
DTYPES = st.sampled_from([DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32])
INT_DTYPES = st.sampled_from([DType.INT8, DType.INT16, DType.INT32])


def draw_graph(data: st.DataObject, op_type: str, dtypes: st.SearchStrategy[DType] = DTYPES) -> Graph:
    # SQUEEZE may insert a 1 after each dimension: at most rank 6, the emitted API's limit.
    max_rank = 3 if op_type == "SQUEEZE" else 4
    shape = tuple(data.draw(st.integers(1, 5)) for _ in range(data.draw(st.integers(1, max_rank))))
    # int8 quantized; int16, int32 and float32 plain (the audio front end reshapes int16).
    dtype = data.draw(dtypes)
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    builder = GraphBuilder()
    if op_type == "SQUEEZE":
        with_ones = tuple(d for size in shape for d in ((size, 1) if data.draw(st.booleans()) else (size,)))
        x = builder.tensor("input", dtype, with_ones, quantization)
        ones = [axis for axis, size in enumerate(with_ones) if size == 1]
        # Some of the size-1 dimensions by index (negative or not), or none named: all of them.
        chosen = data.draw(st.lists(st.sampled_from(ones), unique=True)) if ones else []
        rank = len(with_ones)
        squeeze_dims = tuple(axis - rank if data.draw(st.booleans()) else axis for axis in chosen)
        kept = [size for axis, size in enumerate(with_ones) if (axis not in chosen if chosen else size != 1)]
        y = builder.tensor("output", dtype, tuple(kept) or (1,), quantization)
        return builder.single_node_graph("SQUEEZE", [x], [y], SqueezeAttributes(squeeze_dims))
    x = builder.tensor("input", dtype, shape, quantization)
    new_shape = (int(np.prod(shape)),) if data.draw(st.booleans()) else tuple(reversed(shape))
    # The shape input as written (sometimes with its one -1 to infer), as in the audio front end.
    written = list(new_shape)
    if data.draw(st.booleans()):
        written[data.draw(st.integers(0, len(written) - 1))] = -1
    target = builder.tensor("shape", DType.INT32, (len(written),), None, np.array(written, dtype=np.int32))
    y = builder.tensor("output", dtype, new_shape, quantization)
    return builder.single_node_graph("RESHAPE", [x, target], [y], None)


@settings(max_examples=20)
@given(st.data(), st.sampled_from(["RESHAPE", "SQUEEZE"]))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = draw_graph(data, op_type)
    if op_type == "SQUEEZE":
        options = schema.SqueezeOptionsT()
        options.squeezeDims = list(graph.nodes[0].attributes.squeeze_dims)
        squeeze_options = schema.BuiltinOptions.SqueezeOptions
        check_reference_matches_tflite_micro(
            graph, REGISTRY, schema.BuiltinOperator.SQUEEZE, 1, squeeze_options, options
        )
        return
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.RESHAPE, 1)


@settings(max_examples=5)
@given(st.data(), st.sampled_from(["RESHAPE", "SQUEEZE"]))
def test_c_module_copies_and_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_module_copies(draw_graph(data, op_type, INT_DTYPES))


@settings(max_examples=4)
@given(st.data(), st.sampled_from(["RESHAPE", "SQUEEZE"]))
def test_float32_c_module_copies_and_matches_reference_exactly(data: st.DataObject, op_type: str) -> None:
    check_c_module_copies(draw_graph(data, op_type, st.just(DType.FLOAT32)), float_ulp_tolerance=0)


def check_c_module_copies(graph: Graph, float_ulp_tolerance: int | None = None) -> None:
    # A graph input is never aliased to a graph output (the caller owns both
    # views), so this is the copy path; memory_plan_test covers aliasing.
    plan = plan_memory(graph)
    assert plan.offset_of(graph.inputs[0]) != plan.offset_of(graph.outputs[0])
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=float_ulp_tolerance)
