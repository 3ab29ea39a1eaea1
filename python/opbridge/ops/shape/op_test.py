# SPDX-License-Identifier: Apache-2.0
"""SHAPE of drawn int8, int16, int32 and float32 tensors of rank 1 to 5: reference == TFLite Micro (int32 out; TFLite
Micro has no int64 SHAPE), C module == reference (int32 and int64: the sizes stored at conversion time). That
conversion folds SHAPE and the shape arithmetic it feeds is tested in frontends/litert/static_shapes_test.py."""

import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph
from opbridge.ops.operation import validate_graph
from opbridge.ops.shape.attributes import ShapeAttributes
from opbridge.schemas.schema import ShapeInferenceError

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.SHAPE


def drawn_graph(data: st.DataObject, out_type: DType) -> Graph:
    builder = GraphBuilder()
    shape = tuple(data.draw(st.lists(st.integers(1, 6), min_size=1, max_size=5)))
    dtype = data.draw(st.sampled_from([DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32]))
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    x = builder.tensor("input", dtype, shape, quantization)
    y = builder.tensor("output", out_type, (len(shape),))
    return builder.single_node_graph("SHAPE", [x], [y], ShapeAttributes(out_type))


def litert_options(out_type: DType) -> schema.ShapeOptionsT:
    options = schema.ShapeOptionsT()
    options.outType = schema.TensorType.INT32 if out_type is DType.INT32 else schema.TensorType.INT64
    return options


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = drawn_graph(data, DType.INT32)
    options = litert_options(DType.INT32)
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, schema.BuiltinOptions.ShapeOptions, options)


@pytest.mark.parametrize("out_type", [DType.INT32, DType.INT64], ids=lambda d: d.value)
@settings(max_examples=2, deadline=None)
@given(data=st.data())
def test_c_module_matches_reference(out_type: DType, data: st.DataObject) -> None:
    check_c_matches_reference(drawn_graph(data, out_type), REGISTRY)


def test_an_output_type_other_than_int32_or_int64_is_refused() -> None:
    builder = GraphBuilder()
    x = builder.tensor("input", DType.FLOAT32, (2, 3))
    y = builder.tensor("output", DType.INT16, (2,))
    graph = builder.single_node_graph("SHAPE", [x], [y], ShapeAttributes(DType.INT16))
    with pytest.raises(ShapeInferenceError, match=r"shape_under_test.*int16"):
        validate_graph(graph, REGISTRY)
