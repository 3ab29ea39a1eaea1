# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS on int8, int16 and float32 (TFLite Micro's types), at every axis (negative ones too), the axis an
int32 scalar or vector: reference == TFLite Micro, C module == reference (bit for bit: the bytes are copied). The
tests are RESHAPE's, SQUEEZE's and EXPAND_DIMS's alike: opbridge_testing/reshape_squeeze_tests.py; the refusals are
here."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.reshape_squeeze_tests import REGISTRY, reshape_squeeze_tests
from opbridge_testing.single_op import GraphBuilder

from opbridge.ir import DType
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

(
    test_reference_matches_tflite_micro,
    test_c_module_copies_and_matches_reference,
    test_float32_c_module_copies_and_matches_reference_exactly,
) = reshape_squeeze_tests("EXPAND_DIMS", schema.BuiltinOperator.EXPAND_DIMS)


def _graph(axis_data: np.ndarray | None, output_shape: tuple[int, ...] = (2, 1, 3)) -> GraphBuilder:
    builder = GraphBuilder()
    x = builder.tensor("input", DType.FLOAT32, (2, 3))
    dtype = DType.INT64 if axis_data is not None and axis_data.dtype == np.int64 else DType.INT32
    axis = builder.tensor("axis", dtype, () if axis_data is None else axis_data.shape, None, axis_data)
    y = builder.tensor("output", DType.FLOAT32, output_shape)
    return builder.single_node_graph("EXPAND_DIMS", [x, axis], [y], None)


@pytest.mark.parametrize(
    ("axis", "message"),
    [
        (np.array(3, np.int32), r"axis 3 is outside \[-3, 2\] for an input of rank 2"),
        (np.array(-4, np.int32), r"axis -4 is outside \[-3, 2\]"),
        (np.array([1, 2], np.int32), r"the axis input holds 2 values; EXPAND_DIMS takes one axis"),
        (None, r"the axis input is computed at run time"),
        (np.array(1, np.int64), r"allows TAxis in \{int32\}"),
    ],
)
def test_bad_axes_are_refused_naming_the_node(axis: np.ndarray | None, message: str) -> None:
    with pytest.raises(ShapeInferenceError, match=message) as raised:
        validate_graph(_graph(axis), REGISTRY)
    assert "expand_dims_under_test" in str(raised.value)


def test_an_output_shape_other_than_the_inferred_one_is_refused() -> None:
    with pytest.raises(ShapeInferenceError, match=r"\[2, 3, 1\]"):
        validate_graph(_graph(np.array(1, np.int32), output_shape=(2, 3, 1)), REGISTRY)
