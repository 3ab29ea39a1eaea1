"""AVERAGE_POOL_2D and MAX_POOL_2D on drawn windows and paddings: reference == TFLite Micro, C == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ops.builtin import build_builtin_registry
from opbridge.testing.single_op import (
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    pool_2d_graph,
    pool_2d_options,
)

REGISTRY = build_builtin_registry()
CODES = {"AVERAGE_POOL_2D": schema.BuiltinOperator.AVERAGE_POOL_2D, "MAX_POOL_2D": schema.BuiltinOperator.MAX_POOL_2D}


@settings(max_examples=40)
@given(st.data(), st.sampled_from(sorted(CODES)))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    graph = pool_2d_graph(data, op_type)
    check_reference_matches_tflite_micro(
        graph, REGISTRY, CODES[op_type], 2, schema.BuiltinOptions.Pool2DOptions, pool_2d_options(graph)
    )


@settings(max_examples=20)
@given(st.data(), st.sampled_from(sorted(CODES)))
def test_c_kernel_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(pool_2d_graph(data, op_type), REGISTRY)
