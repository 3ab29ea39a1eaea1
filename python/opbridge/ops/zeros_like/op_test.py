# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE on int8, int32, int64 and float32: reference == TFLite Micro bit for bit (drawn shapes and seeded
values; float32 edge values, NaN and -0.0 among them, give +0.0; int8 gives the stored 0 whatever its zero point),
C kernel == reference bit for bit; other dtypes are refused by the schema."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge_testing import strategies
from opbridge_testing.activation_tests import REGISTRY, unary_graph
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

CODE = schema.BuiltinOperator.ZEROS_LIKE
OP = "ZEROS_LIKE"
DTYPES = [DType.INT8, DType.INT32, DType.INT64, DType.FLOAT32]


def drawn_graph(data: st.DataObject, dtype: DType) -> Graph:
    shape = data.draw(array_shapes(min_dims=1, max_dims=4, max_side=6))
    if dtype is not DType.INT8:
        return unary_graph(OP, dtype, shape)
    # The output keeps the input's quantization in TFLite's converter; any zero point leaves the stored 0.
    quantization = data.draw(strategies.per_tensor(0.005, 0.5))
    return unary_graph(OP, dtype, shape, quantization, quantization)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.value)
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_reference_matches_tflite_micro(dtype: DType, data: st.DataObject) -> None:
    check_reference_matches_tflite_micro(drawn_graph(data, dtype), REGISTRY, CODE, 1)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.value)
@settings(max_examples=2, deadline=None)
@given(data=st.data())
def test_c_kernel_matches_reference(dtype: DType, data: st.DataObject) -> None:
    ulps = 0 if dtype is DType.FLOAT32 else None  # float32: +0.0 bit for bit
    check_c_matches_reference(drawn_graph(data, dtype), REGISTRY, float_ulp_tolerance=ulps)


def test_int8_gives_the_stored_zero_not_the_zero_point() -> None:
    quantization = Quantization((0.1,), (-57,))
    graph = unary_graph(OP, DType.INT8, (3, 5), quantization, quantization)
    values = np.arange(-128, 127, 17, dtype=np.int8).reshape(3, 5)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, inputs=[[values]])
    check_c_matches_reference(graph, REGISTRY)


def test_float32_edge_values_give_positive_zero() -> None:
    graph = unary_graph(OP, DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
    inputs = [[FLOAT32_EDGE_VALUES], [-FLOAT32_EDGE_VALUES]]
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, inputs=inputs)


@pytest.mark.parametrize("dtype", [DType.INT16, DType.UINT8, DType.BOOL], ids=lambda d: d.value)
def test_other_dtypes_are_refused_by_the_schema(dtype: DType) -> None:
    graph = unary_graph(OP, dtype, (4,))
    with pytest.raises(ShapeInferenceError, match=rf"is {dtype.value}; opbridge.ZEROS_LIKE .* allows T in"):
        validate_graph(graph, REGISTRY)
