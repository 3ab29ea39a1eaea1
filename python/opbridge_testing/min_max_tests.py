# SPDX-License-Identifier: Apache-2.0
"""The op tests MINIMUM and MAXIMUM share (ops/minimum/op_test.py, ops/maximum/op_test.py):
int8, int16, int32 and float32 with broadcasting, reference == TFLite Micro, C kernel ==
reference (float32: bit for bit; a NaN in either input gives input 1, as TFLite Micro's
comparison does)."""

from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge.ir import DType

from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    broadcast_binary_graph,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    float32_edge_graph,
)

REGISTRY = available_operator_registry()
DTYPES = st.sampled_from([DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32])


def min_max_tests(op_type: str, builtin_code: int) -> tuple[Callable[..., None], ...]:
    """The five test functions of MINIMUM or MAXIMUM, for the op's op_test.py to bind by name."""

    @settings(max_examples=25)
    @given(st.data(), DTYPES)
    def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
        graph = broadcast_binary_graph(data, op_type, dtype, None)
        check_reference_matches_tflite_micro(graph, REGISTRY, builtin_code, 4)

    @settings(max_examples=15)
    @given(st.data(), st.sampled_from([DType.INT8, DType.INT16, DType.INT32]))
    def test_c_kernel_matches_reference(data: st.DataObject, dtype: DType) -> None:
        check_c_matches_reference(broadcast_binary_graph(data, op_type, dtype, None), REGISTRY)

    @settings(max_examples=6)
    @given(st.data())
    def test_float32_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
        graph = broadcast_binary_graph(data, op_type, DType.FLOAT32, None)
        check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)

    def test_float32_edge_values_match_tflite_micro() -> None:
        # Every pair of edge values, NaN and signed zeros included.
        edges = FLOAT32_EDGE_VALUES
        check_reference_matches_tflite_micro(
            float32_edge_graph(op_type, None),
            REGISTRY,
            builtin_code,
            1,
            inputs=[[edges.reshape(-1, 1), edges.reshape(1, -1)], [edges.reshape(-1, 1), -edges.reshape(1, -1)]],
        )

    def test_float32_c_kernel_on_edge_values_exactly() -> None:
        # Finite edge values (constants; C has no literal for inf or NaN) against seeded values, both operand orders.
        finite = FLOAT32_EDGE_VALUES[np.isfinite(FLOAT32_EDGE_VALUES)]
        for constant_first in (True, False):
            builder = GraphBuilder()
            edges = builder.tensor("edges", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
            seeded = builder.tensor("seeded", DType.FLOAT32, (1, 8))
            y = builder.tensor("y", DType.FLOAT32, (finite.size, 8))
            inputs: list[int | None] = [edges, seeded] if constant_first else [seeded, edges]
            graph = builder.single_node_graph(op_type, inputs, [y], None)
            check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)

    return (
        test_reference_matches_tflite_micro,
        test_c_kernel_matches_reference,
        test_float32_c_kernel_matches_reference_exactly,
        test_float32_edge_values_match_tflite_micro,
        test_float32_c_kernel_on_edge_values_exactly,
    )
