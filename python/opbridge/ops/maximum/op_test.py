"""MAXIMUM on int8, int16 and int32 with broadcasting: reference == TFLite Micro, C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType
from opbridge.ops.builtin import build_builtin_registry
from opbridge.testing.single_op import (
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

REGISTRY = build_builtin_registry()
DTYPES = st.sampled_from([DType.INT8, DType.INT16, DType.INT32])


@settings(max_examples=25)
@given(st.data(), DTYPES)
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = broadcast_binary_graph(data, "MAXIMUM", dtype, None)
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.MAXIMUM, 4)


@settings(max_examples=15)
@given(st.data(), DTYPES)
def test_c_kernel_matches_reference(data: st.DataObject, dtype: DType) -> None:
    check_c_matches_reference(broadcast_binary_graph(data, "MAXIMUM", dtype, None), REGISTRY)
