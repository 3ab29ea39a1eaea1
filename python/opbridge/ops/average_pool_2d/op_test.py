"""AVERAGE_POOL_2D on drawn windows and paddings: reference == TFLite Micro, C kernel == reference."""

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


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = pool_2d_graph(data, "AVERAGE_POOL_2D")
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.AVERAGE_POOL_2D, 2, schema.BuiltinOptions.Pool2DOptions,
        pool_2d_options(graph),
    )  # fmt: skip


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(pool_2d_graph(data, "AVERAGE_POOL_2D"), REGISTRY)
