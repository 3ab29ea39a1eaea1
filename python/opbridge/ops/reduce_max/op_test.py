# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX (float32 and int8) over drawn constant axes, with and without keep_dims: reference == TFLite Micro
bit for bit (NaN, infinities and signed zeros included), C module == reference bit for bit, unequal int8
quantization refused as TFLite Micro refuses it, ONNX ReduceMax (opsets 17 and 18) converted == onnxruntime."""

import pathlib
import tempfile

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from opbridge_testing import strategies
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    KERNELS,
    WORKSPACE_ROOT,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    run_golden_program,
)
from opbridge_testing.tflm import run_tflite_micro

from opbridge.aot.compile import compile_graph
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedTensorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.mean.attributes import MeanAttributes

REGISTRY = available_operator_registry()
# Values that tie, signed zeros, NaN and infinities, for drawn shapes: which of equal values stays and what
# NaN and -inf do depend on the visiting order and on the exact comparison.
FLOAT32_TIES = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, -3.4028235e38], np.float32)


def reduced_shape(shape: tuple[int, ...], axes: list[int], keep_dims: bool) -> tuple[int, ...]:
    reduced = {axis % len(shape) for axis in axes}
    if keep_dims:
        return tuple(1 if axis in reduced else size for axis, size in enumerate(shape))
    return tuple(size for axis, size in enumerate(shape) if axis not in reduced)


def reduce_max_graph(
    shape: tuple[int, ...],
    axes: list[int],
    keep_dims: bool,
    dtype: DType = DType.FLOAT32,
    quantization: tuple[Quantization | None, Quantization | None] = (None, None),
    scalar_axis: bool = False,
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, quantization[0])
    axes_data = np.array(axes[0] if scalar_axis else axes, dtype=np.int32)
    axes_tensor = builder.tensor("axes", DType.INT32, axes_data.shape, None, axes_data)
    y = builder.tensor("reduce_max", dtype, reduced_shape(shape, axes, keep_dims), quantization[1])
    return builder.single_node_graph("REDUCE_MAX", [x, axes_tensor], [y], MeanAttributes(keep_dims=keep_dims))


def draw_graph(data: st.DataObject, dtype: DType) -> Graph:
    rank = data.draw(st.integers(1, 5))
    shape = tuple(data.draw(st.integers(1, 6)) for _ in range(rank))
    # One to `rank` axes, sometimes negative, sometimes repeated (TFLite Micro resolves both); a single
    # axis sometimes as a scalar tensor.
    axes = data.draw(st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank))
    scalar_axis = len(axes) == 1 and data.draw(st.booleans())
    # int8: one quantization on input and output, as TFLite Micro requires.
    quantization = data.draw(strategies.per_tensor(0.01, 0.5)) if dtype is DType.INT8 else None
    return reduce_max_graph(shape, axes, data.draw(st.booleans()), dtype, (quantization, quantization), scalar_axis)


def version_of(graph: Graph) -> int:
    return 2 if graph.tensors[0].dtype is DType.INT8 else 1


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    options = schema.ReducerOptionsT()
    options.keepDims = graph.nodes[0].attributes.keep_dims
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        schema.BuiltinOperator.REDUCE_MAX,
        version_of(graph),
        schema.BuiltinOptions.ReducerOptions,
        options,
        inputs=inputs,
    )


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from([DType.FLOAT32, DType.INT8]))
def test_reference_matches_tflite_micro(data: st.DataObject, dtype: DType) -> None:
    graph = draw_graph(data, dtype)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    shape = graph.tensors[0].shape
    if dtype is DType.FLOAT32:
        # Standard normal values, and values drawn from ties, signed zeros, NaN and infinities.
        inputs = [rng.standard_normal(shape).astype(np.float32), rng.choice(FLOAT32_TIES, size=shape)]
    else:
        # The whole int8 range, and mostly -128 (the initial value) with ties just above it.
        inputs = [
            rng.integers(-128, 128, size=shape).astype(np.int8),
            rng.integers(-128, -125, size=shape).astype(np.int8),
        ]
    check_against_tflite_micro(graph, [[values] for values in inputs])


@settings(max_examples=8, deadline=None)
@given(st.data(), st.sampled_from([DType.FLOAT32, DType.INT8]))
def test_c_module_matches_reference_exactly(data: st.DataObject, dtype: DType) -> None:
    # int8 outputs are always compared byte for byte; float32 ones here too (no ULP tolerance).
    tolerance = 0 if dtype is DType.FLOAT32 else None
    check_c_matches_reference(draw_graph(data, dtype), REGISTRY, float_ulp_tolerance=tolerance)


EDGE_CASES = [((1, 4, 6, 1), [1, 2]), ((1, 1, 4, 6), [2, 3]), ((4, 6), [0, 1]), ((4, 6), [-1]), ((24,), [0])]


def edge_inputs(shape: tuple[int, ...]) -> list[np.ndarray]:
    """FLOAT32_EDGE_VALUES and their negation in `shape`; rows (the last axis of (4, 6)) of only NaN, only -inf,
    and signed zeros either way round; and whole tensors of NaN, of -inf, of signed zeros either way round."""
    values = FLOAT32_EDGE_VALUES.reshape(shape)
    zeros = np.resize(np.array([-0.0, 0.0], np.float32), 24)
    rows = np.stack([np.full(6, np.nan), np.full(6, -np.inf), zeros[:6], -zeros[:6]]).astype(np.float32)
    wholes = [np.full(24, np.nan), np.full(24, -np.inf), zeros, -zeros]
    return [values, -values, *(np.asarray(v, np.float32).reshape(shape) for v in (rows, *wholes))]


@pytest.mark.parametrize(("shape", "axes"), EDGE_CASES)
def test_edge_values_match_tflite_micro(shape: tuple[int, ...], axes: list[int]) -> None:
    # NaN never wins and -inf never replaces -FLT_MAX; of 0.0 and -0.0 the first stays.
    for keep_dims in (True, False):
        check_against_tflite_micro(reduce_max_graph(shape, axes, keep_dims), [[v] for v in edge_inputs(shape)])


def float_bits(values: np.ndarray) -> str:
    return ", ".join(f"0x{bits:08x}u" for bits in np.ascontiguousarray(values, np.float32).ravel().view(np.uint32))


@pytest.mark.parametrize(("shape", "axes"), EDGE_CASES)
def test_c_module_on_edge_values_exactly(shape: tuple[int, ...], axes: list[int]) -> None:
    # The golden programs hold C float literals (no NaN or infinities): here the inputs and the reference's
    # outputs go in as bit patterns, and the module's outputs must have the same bits.
    graph = reduce_max_graph(shape, axes, keep_dims=False)
    interpreter = ReferenceInterpreter(graph, REGISTRY)
    inputs = edge_inputs(shape)
    expected = [interpreter.run([values])[0] for values in inputs]
    count, size = graph.tensors[0].element_count, graph.tensors[2].element_count
    harness = f"""#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "single_op.h"

static const uint32_t inputs[{len(inputs)}][{count}] = {{{", ".join("{" + float_bits(v) + "}" for v in inputs)}}};
static const uint32_t expected[{len(inputs)}][{size}] = {{{", ".join("{" + float_bits(v) + "}" for v in expected)}}};

int main(void) {{
  single_op_context ctx;
  int failures = 0;
  if (single_op_init(&ctx, NULL, 0) != SINGLE_OP_STATUS_OK) {{
    return 1;
  }}
  for (int c = 0; c < {len(inputs)}; ++c) {{
    memcpy(ctx.inputs[0].data, inputs[c], sizeof inputs[c]);
    if (single_op_run(&ctx) != SINGLE_OP_STATUS_OK || memcmp(ctx.outputs[0].data, expected[c], sizeof expected[c])) {{
      printf("FAIL case %d\\n", c);
      ++failures;
    }}
  }}
  return failures != 0;
}}
"""
    with tempfile.TemporaryDirectory() as scratch:
        directory = pathlib.Path(scratch)
        compile_graph(graph, REGISTRY, "single_op", directory / "module", bundle_kernels=False)
        (directory / "edges.c").write_text(harness)
        run_golden_program(
            directory / "module", directory / "edges.c", include_dirs=[WORKSPACE_ROOT], kernel_sets=[KERNELS]
        )


def test_empty_axes_match_tflite_micro() -> None:
    # No axes: nothing is reduced, yet each element still meets -FLT_MAX (NaN and -inf become -FLT_MAX).
    # opbridge's LiteRT reader takes an empty constant for a missing producer, so the graph is run directly.
    shape = (4, 6)
    graph = reduce_max_graph(shape, [], keep_dims=False)
    model = single_op_model(
        graph, schema.BuiltinOperator.REDUCE_MAX, 1, schema.BuiltinOptions.ReducerOptions, schema.ReducerOptionsT()
    )
    for values in edge_inputs(shape):
        (ours,) = ReferenceInterpreter(graph, REGISTRY).run([values])
        (theirs,) = run_tflite_micro(model, [values], 1)
        np.testing.assert_array_equal(ours.view(np.uint32), np.asarray(theirs, np.float32).view(np.uint32))


@pytest.mark.parametrize(
    ("input_q", "output_q"),
    [
        (Quantization((0.1,), (3,)), Quantization((0.2,), (3,))),  # scales differ
        (Quantization((0.1,), (3,)), Quantization((0.1,), (4,))),  # zero points differ
    ],
)
def test_unequal_int8_quantization_is_refused(input_q: Quantization, output_q: Quantization) -> None:
    graph = reduce_max_graph((2, 5), [1], False, DType.INT8, (input_q, output_q))
    values = np.arange(-5, 5, dtype=np.int8).reshape(2, 5)
    model = single_op_model(
        graph, schema.BuiltinOperator.REDUCE_MAX, 2, schema.BuiltinOptions.ReducerOptions, schema.ReducerOptionsT()
    )
    with pytest.raises(RuntimeError, match="invocation failed"):  # TFLite Micro's EvalMax check
        run_tflite_micro(model, [values], 1)
    with pytest.raises(UnsupportedTensorError, match=r"REDUCE_MAX.*input and output quantization differ"):
        ReferenceInterpreter(graph, REGISTRY).run([values])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(UnsupportedTensorError, match=r"quantization differ"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


@pytest.mark.parametrize(
    ("opset", "axes", "keepdims", "noop"),
    [
        (17, [1], None, None),  # keepdims defaults to 1
        (17, [1], 0, None),
        (17, [0, 2], 1, None),
        (17, [-1, 1, 0], 0, None),
        (17, None, 0, None),  # no axes: every axis
        (17, None, 1, None),
        (18, [1], None, None),
        (18, [2, 0], 0, None),
        (18, [-2], 1, None),
        (18, None, 0, None),
        (18, None, 1, 0),
        (18, None, 1, 1),  # no axes and noop_with_empty_axes: the identity
    ],
)
def test_onnx_reduce_max_matches_onnxruntime(
    opset: int, axes: list[int] | None, keepdims: int | None, noop: int | None
) -> None:
    shape = (3, 5, 4)
    attributes: dict[str, object] = {}
    if keepdims is not None:
        attributes["keepdims"] = keepdims
    if noop is not None:
        attributes["noop_with_empty_axes"] = noop
    inputs, initializers = ["x"], []
    if axes is not None and opset < 18:
        attributes["axes"] = axes
    elif axes is not None:
        inputs.append("axes")
        initializers.append(numpy_helper.from_array(np.array(axes, np.int64), "axes"))
    node = helper.make_node("ReduceMax", inputs, ["y"], name="reduce_max", **attributes)
    graph = helper.make_graph(
        [node],
        "reduce_max",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]).SerializeToString()
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ([] if noop else ["REDUCE_MAX"])
    rng = np.random.default_rng(opset)
    # Finite values (NaN and -inf are where TFLite Micro's semantics, kept here, differ from onnxruntime's),
    # with ties of signed zeros.
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    for values in (rng.standard_normal(shape).astype(np.float32), rng.choice(FLOAT32_TIES[3:], size=shape)):
        (ours,) = ReferenceInterpreter(converted, context).run([values])
        (theirs,) = session.run(None, {"x": values})
        assert ours.shape == theirs.shape
        np.testing.assert_array_equal(np.asarray(ours).view(np.uint32), np.asarray(theirs).view(np.uint32))
