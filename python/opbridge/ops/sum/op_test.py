# SPDX-License-Identifier: Apache-2.0
"""SUM (float32) over drawn constant axes, with and without keep_dims: reference == TFLite Micro bit for bit,
C kernel == reference bit for bit (both add 0 + the elements in row-major input order; no libm), ONNX
ReduceSum converted == onnxruntime; int8 is refused by the schema."""

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

REGISTRY = available_operator_registry()


def reduced_shape(shape: tuple[int, ...], axes: list[int], keep_dims: bool) -> tuple[int, ...]:
    reduced = {axis % len(shape) for axis in axes}
    if keep_dims:
        return tuple(1 if axis in reduced else size for axis, size in enumerate(shape))
    return tuple(size for axis, size in enumerate(shape) if axis not in reduced)


def sum_graph(shape: tuple[int, ...], axes: list[int], keep_dims: bool, scalar_axis: bool = False) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("input", DType.FLOAT32, shape)
    axes_data = np.array(axes[0] if scalar_axis else axes, dtype=np.int32)
    axes_tensor = builder.tensor("axes", DType.INT32, axes_data.shape, None, axes_data)
    y = builder.tensor("sum", DType.FLOAT32, reduced_shape(shape, axes, keep_dims))
    return builder.single_node_graph("SUM", [x, axes_tensor], [y], MeanAttributes(keep_dims=keep_dims))


def draw_graph(data: st.DataObject) -> Graph:
    rank = data.draw(st.integers(1, 5))
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(rank))
    # One to `rank` axes, sometimes negative, sometimes repeated (TFLite Micro resolves both); a single
    # axis sometimes as a scalar tensor.
    axes = data.draw(st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank))
    scalar_axis = len(axes) == 1 and data.draw(st.booleans())
    return sum_graph(shape, axes, data.draw(st.booleans()), scalar_axis)


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    options = schema.ReducerOptionsT()
    options.keepDims = graph.nodes[0].attributes.keep_dims
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.SUM, 1, schema.BuiltinOptions.ReducerOptions, options, inputs=inputs
    )


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    # Seeded standard normal values, and values of mixed magnitudes whose sums round at every step.
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    shape = graph.tensors[0].shape
    mixed = rng.standard_normal(shape) * np.exp2(rng.integers(-20, 20, size=shape))
    check_against_tflite_micro(graph, [[rng.standard_normal(shape).astype(np.float32)], [mixed.astype(np.float32)]])


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_c_kernel_matches_reference_exactly(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize(("shape", "axes"), [((1, 4, 6, 1), [1, 2]), ((1, 1, 4, 6), [2, 3]), ((4, 6), [0, 1])])
def test_edge_values_match_tflite_micro(shape: tuple[int, ...], axes: list[int]) -> None:
    # Sums that overflow to infinity and meet inf, -inf and NaN; signed zeros and subnormals.
    values = FLOAT32_EDGE_VALUES.reshape(shape)
    finite = np.where(np.isfinite(values), values, np.float32(1.0))
    check_against_tflite_micro(sum_graph(shape, axes, True), inputs=[[values], [-values], [finite]])


def test_int8_is_refused_by_the_schema() -> None:
    # An int8 SUM (version 2) reads, and is refused where the converter checks every node.
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (2, 5), Quantization((0.1,), (0,)))
    axes = builder.tensor("axes", DType.INT32, (1,), None, np.array([1], np.int32))
    y = builder.tensor("sum", DType.INT8, (2,), Quantization((0.5,), (0,)))
    graph = builder.single_node_graph("SUM", [x, axes], [y], MeanAttributes())
    model = single_op_model(
        graph, schema.BuiltinOperator.SUM, 2, schema.BuiltinOptions.ReducerOptions, schema.ReducerOptionsT()
    )
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "sum_int8.tflite")
    with pytest.raises(ShapeInferenceError, match=r"is int8; opbridge.SUM .* allows T in \{float32\}"):
        validate_graph(parsed, REGISTRY)


@pytest.mark.parametrize(
    ("axes", "keepdims", "noop"),
    [
        ([1], None, None),  # keepdims defaults to 1
        ([1], 0, None),
        ([0, 2], 1, None),
        ([-1, 1, 0], 0, None),
        (None, 0, None),  # no axes: every axis
        (None, 1, 1),  # no axes and noop_with_empty_axes: the identity
    ],
)
def test_onnx_reduce_sum_matches_onnxruntime(axes: list[int] | None, keepdims: int | None, noop: int | None) -> None:
    shape = (3, 5, 4)
    attributes = {}
    if keepdims is not None:
        attributes["keepdims"] = keepdims
    if noop is not None:
        attributes["noop_with_empty_axes"] = noop
    initializers = [] if axes is None else [numpy_helper.from_array(np.array(axes, np.int64), "axes")]
    node = helper.make_node("ReduceSum", ["x"] + ([] if axes is None else ["axes"]), ["y"], name="sum", **attributes)
    graph = helper.make_graph(
        [node],
        "reduce_sum",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ([] if noop else ["SUM"])
    values = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    (theirs,) = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": values})
    assert ours.shape == theirs.shape
    # onnxruntime adds in its own (vectorised) order; a sum of standard normal values that cancels to
    # near 0 keeps an absolute error of a few ulps of its terms, hence atol besides rtol.
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)
