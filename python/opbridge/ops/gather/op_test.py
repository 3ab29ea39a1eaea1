# SPDX-License-Identifier: Apache-2.0
"""GATHER on drawn shapes, axes, positions and element types: reference == TFLite Micro (float32 and int8
data, int32 positions: what it takes) and == LiteRT (int32 data, int64 positions), C kernel == reference
bit for bit (constant positions, and positions from a graph input through the module's API); positions out
of range fail everywhere; ONNX Gather converts to it and equals onnxruntime."""

import pathlib
import re
import tempfile

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from opbridge_testing import strategies
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    KERNELS,
    WORKSPACE_ROOT,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
    run_golden_program,
)
from opbridge_testing.tflm import run_tflite_micro

from opbridge.aot.compile import compile_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.c.emit_context import C_TYPES
from opbridge.backends.c.emitter import c_array
from opbridge.backends.c.golden_inputs import seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import InvalidInputError, OpbridgeError, UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.gather.attributes import GatherAttributes
from opbridge.ops.gather.onnx import convert_gather
from opbridge.ops.gather.reference import GATHER_DTYPES

REGISTRY = available_operator_registry()
# What TFLite Micro's GATHER takes: float32 and int8 data, int32 positions.
TFLITE_MICRO_DTYPES = (DType.FLOAT32, DType.INT8)


def gather_graph(
    dtype: DType,
    shape: tuple[int, ...],
    positions_shape: tuple[int, ...],
    axis: int,
    positions_dtype: DType = DType.INT32,
    positions: np.ndarray | None = None,
    quantization: Quantization | None = None,
    batch_dims: int = 0,
) -> Graph:
    """A GATHER node; `positions` given: a constant, else a graph input."""
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantization)
    data = None if positions is None else np.asarray(positions, positions_dtype.numpy).reshape(positions_shape)
    p = builder.tensor("positions", positions_dtype, positions_shape, None, data)
    at = axis % len(shape)
    y = builder.tensor("y", dtype, shape[:at] + positions_shape + shape[at + 1 :], quantization)
    return builder.single_node_graph("GATHER", [x, p], [y], GatherAttributes(axis=axis, batch_dims=batch_dims))


def draw_case(
    data: st.DataObject, dtypes: tuple[DType, ...], positions_dtypes: tuple[DType, ...], constant: bool | None = None
) -> tuple[Graph, np.ndarray]:
    """A drawn GATHER graph and in-range positions (its constant, or the values to feed its graph input)."""
    dtype = data.draw(st.sampled_from(dtypes))
    rank = data.draw(st.integers(1, 4))
    shape = tuple(data.draw(st.integers(1, 5)) for _ in range(rank))
    axis = data.draw(st.integers(-rank, rank - 1))
    positions_rank = data.draw(st.integers(0, min(2, 6 - rank + 1)))
    positions_shape = tuple(data.draw(st.integers(1, 4)) for _ in range(positions_rank))
    size = shape[axis]
    count = int(np.prod(positions_shape, dtype=np.int64))
    values = np.array(data.draw(st.lists(st.integers(0, size - 1), min_size=count, max_size=count)))
    positions_dtype = data.draw(st.sampled_from(positions_dtypes))
    values = values.astype(positions_dtype.numpy).reshape(positions_shape)
    if constant is None:
        constant = data.draw(st.booleans())
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    graph = gather_graph(
        dtype, shape, positions_shape, axis, positions_dtype, values if constant else None, quantization
    )
    return graph, values


def litert_version(graph: Graph) -> int:
    """TFLite's GATHER version for the input (op_version.cc): 2 for int8 data, else 1."""
    return 2 if graph.tensors[graph.inputs[0]].dtype is DType.INT8 else 1


def options_of(graph: Graph) -> schema.GatherOptionsT:
    options = schema.GatherOptionsT()
    options.axis = graph.nodes[0].attributes.axis
    options.batchDims = graph.nodes[0].attributes.batch_dims
    return options


def feeds(graph: Graph, positions: np.ndarray, cases: int = 3) -> list[list[np.ndarray]]:
    """Per case: seeded data, and the in-range positions when they are a graph input."""
    data = seeded_inputs(graph.tensors[graph.inputs[0]], cases, seed=5)
    return [[values] + ([positions] if len(graph.inputs) > 1 else []) for values in data]


def litert_model(graph: Graph) -> bytes:
    return single_op_model(
        graph, schema.BuiltinOperator.GATHER, litert_version(graph), schema.BuiltinOptions.GatherOptions,
        options_of(graph),
    )  # fmt: skip


def run_litert(model: bytes, inputs: list[np.ndarray]) -> np.ndarray:
    """LiteRT's reference GATHER kernel."""
    interpreter = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interpreter.allocate_tensors()
    for detail, values in zip(interpreter.get_input_details(), inputs, strict=True):
        interpreter.set_tensor(detail["index"], values)
    interpreter.invoke()
    return np.array(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]))


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph, positions = draw_case(data, TFLITE_MICRO_DTYPES, (DType.INT32,))
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.GATHER, litert_version(graph), schema.BuiltinOptions.GatherOptions,
        options_of(graph), inputs=feeds(graph, positions),
    )  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_int32_data_and_int64_positions_match_litert(data: st.DataObject) -> None:
    """TFLite Micro refuses int32 data and int64 positions; LiteRT's reference kernel takes them."""
    graph, positions = draw_case(data, GATHER_DTYPES, (DType.INT32, DType.INT64))
    model = litert_model(graph)
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "gather.tflite")
    interpreter = ReferenceInterpreter(parsed, REGISTRY)
    for case, inputs in enumerate(feeds(graph, positions)):
        (ours,) = interpreter.run(inputs)
        theirs = run_litert(model, inputs)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_array_equal(
            ours.reshape(-1).view(np.uint8), theirs.reshape(-1).view(np.uint8), err_msg=f"case {case}"
        )


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_c_kernel_equals_reference(data: st.DataObject) -> None:
    """Constant positions (the golden program's seeded inputs would be out of range), every dtype pair."""
    graph, _ = draw_case(data, GATHER_DTYPES, (DType.INT32, DType.INT64), constant=True)
    exact = 0 if graph.tensors[graph.inputs[0]].dtype is DType.FLOAT32 else None  # others: byte for byte anyway
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=exact)


def run_module(graph: Graph, cases: list[list[np.ndarray]], expected: list[np.ndarray | None]) -> str:
    """Compiles `graph` as a C module and a program that runs it on `cases`: each must give its expected
    output bytes, or (None) OPBRIDGE_STATUS_INVALID_ARGUMENT. AssertionError with the program's output if not."""
    p, m = "gather_case", "GATHER_CASE"
    arrays, steps = [], []
    for c, (inputs, output) in enumerate(zip(cases, expected, strict=True)):
        copies = []
        for i, (tensor, values) in enumerate(zip(graph.input_tensors(), inputs, strict=True)):
            arrays.append(c_array(C_TYPES[tensor.dtype], f"case_{c}_input_{i}", np.asarray(values), "static const"))
            copies.append(f"  memcpy(ctx.inputs[{i}].data, case_{c}_input_{i}, {tensor.bytes});")
        if output is None:
            check = f"status != {m}_STATUS_INVALID_ARGUMENT"
        else:
            out = graph.output_tensors()[0]
            arrays.append(c_array(C_TYPES[out.dtype], f"case_{c}_expected", output, "static const"))
            check = f"status != {m}_STATUS_OK || memcmp(ctx.outputs[0].data, case_{c}_expected, {out.bytes}) != 0"
        steps.append(
            "\n".join(copies)
            + f"\n  status = {p}_run(&ctx);\n  if ({check}) {{\n"
            + f'    printf("FAIL case {c}: status %ld\\n", (long)status);\n    ++failures;\n  }}'
        )
    program = f"""#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "{p}.h"

{chr(10).join(arrays)}
int main(void) {{
  {p}_context ctx;
  int failures = 0;
  int32_t status = {p}_init(&ctx, NULL, 0);
  if (status != {m}_STATUS_OK) {{
    printf("FAIL: init returned %ld\\n", (long)status);
    return 1;
  }}
{chr(10).join(steps)}
  printf("{p}: {len(cases)} cases, %d failures\\n", failures);
  return failures == 0 ? 0 : 1;
}}
"""
    with tempfile.TemporaryDirectory() as scratch:
        directory = pathlib.Path(scratch)
        compile_graph(graph, REGISTRY, p, directory / "module", bundle_kernels=False)
        source = directory / "program.c"
        source.write_text(program)
        return run_golden_program(directory / "module", source, include_dirs=[WORKSPACE_ROOT], kernel_sets=[KERNELS])


@pytest.mark.parametrize("positions_dtype", [DType.INT32, DType.INT64])
@pytest.mark.parametrize("dtype", GATHER_DTYPES)
def test_c_module_with_run_time_positions(dtype: DType, positions_dtype: DType) -> None:
    """Positions from a graph input: in range, the reference's output; out of range (past the end or
    negative), OPBRIDGE_STATUS_INVALID_ARGUMENT from the kernel, through the module's run."""
    graph = gather_graph(dtype, (3, 5, 2), (2, 2), 1, positions_dtype)
    interpreter = ReferenceInterpreter(graph, REGISTRY)
    (data,) = seeded_inputs(graph.input_tensors()[0], 1, seed=9)
    good = [np.array([[4, 0], [2, 4]]), np.array([[1, 1], [3, 0]])]
    bad = [
        np.array([[4, 5], [0, 0]]),
        np.array([[0, 1], [-1, 2]]),
        np.array([[0, 0], [0, 2**31 if positions_dtype is DType.INT64 else 7]]),
    ]
    cases = [[data, p.astype(positions_dtype.numpy)] for p in good + bad]
    expected: list[np.ndarray | None] = [interpreter.run(case)[0] for case in cases[: len(good)]]
    expected += [None] * len(bad)
    assert "0 failures" in run_module(graph, cases, expected)


@pytest.mark.parametrize(
    ("positions", "value", "where"), [([0, 3, 1], 3, 1), ([-1, 0, 1], -1, 0), ([0, 1, 2**40], 2**40, 2)]
)
def test_out_of_range_positions_are_an_error_naming_the_node(positions: list[int], value: int, where: int) -> None:
    dtype = DType.INT64 if abs(value) > 2**31 else DType.INT32
    graph = gather_graph(DType.FLOAT32, (3, 4), (3,), 0, dtype)
    x = np.zeros((3, 4), np.float32)
    message = (
        rf'node 0 \(GATHER "gather_under_test"\): positions tensor 1 "positions" {dtype.value}\[3\] holds {value} '
        rf"at flat index {where}, outside \[0, 3\) of axis 0"
    )
    with pytest.raises(InvalidInputError, match=message):
        ReferenceInterpreter(graph, REGISTRY).run([x, np.array(positions, dtype.numpy)])
    if dtype is DType.INT32:  # TFLite Micro fails to invoke on it too
        with pytest.raises(RuntimeError, match="invocation failed"):
            run_tflite_micro(litert_model(graph), [x, np.array(positions, np.int32)], 1)
    # Constant positions out of range: refused when the model is converted.
    constant = gather_graph(DType.FLOAT32, (3, 4), (3,), 0, dtype, np.array(positions))
    with pytest.raises(UnsupportedTensorError, match=message):
        check_c_matches_reference(constant, REGISTRY)


def test_batch_dims_and_bad_axes_are_refused() -> None:
    graph = gather_graph(DType.FLOAT32, (2, 3), (2,), 1, batch_dims=1)
    with pytest.raises(UnsupportedOperatorError, match=r"node 0 \(GATHER.*batch_dims 1 is not supported"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 3), np.float32), np.zeros((2,), np.int32)])
    graph = gather_graph(DType.FLOAT32, (2, 3), (2,), 1)
    graph.nodes[0].attributes = GatherAttributes(axis=2)
    with pytest.raises(OpbridgeError, match=r"node 0 \(GATHER.*axis 2 is outside \[-2, 2\)"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 3), np.float32), np.zeros((2,), np.int32)])


ONNX_TYPES = {DType.FLOAT32: TensorProto.FLOAT, DType.INT32: TensorProto.INT32, DType.INT64: TensorProto.INT64}


def onnx_gather_model(
    shape: tuple[int, ...], axis: int, indices: np.ndarray, constant: bool, data_constant: bool = False
) -> tuple[bytes, dict[str, np.ndarray]]:
    """Gather(data, indices, axis): indices a constant or a graph input; data a graph input or (an
    embedding table) a constant. Returns the model and its feeds."""
    rng = np.random.default_rng(11)
    data = rng.standard_normal(shape).astype(np.float32)
    index_type = ONNX_TYPES[DType.INT64 if indices.dtype == np.int64 else DType.INT32]
    node = helper.make_node("Gather", ["data", "indices"], ["y"], name="gather", axis=axis)
    inputs, initializers, feeds = [], [], {}
    for name, values, element_type, is_constant in (
        ("data", data, TensorProto.FLOAT, data_constant),
        ("indices", indices, index_type, constant),
    ):
        if is_constant:
            initializers.append(helper.make_tensor(name, element_type, list(values.shape), values.ravel().tolist()))
        else:
            inputs.append(helper.make_tensor_value_info(name, element_type, list(values.shape)))
            feeds[name] = values
    graph = helper.make_graph(
        [node],
        "gather",
        inputs,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString(), feeds


def check_onnx_gather(model: bytes, feeds: dict[str, np.ndarray]) -> Graph:
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["GATHER"]
    names = [t.name for t in converted.input_tensors()]
    (ours,) = ReferenceInterpreter(converted, context).run([feeds[name] for name in names])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, feeds)
    assert ours.shape == theirs.shape
    np.testing.assert_array_equal(ours.reshape(-1).view(np.uint32), theirs.reshape(-1).view(np.uint32))
    return converted


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize(
    "indices",
    [
        np.array([2, 0, 1, 2], np.int64),
        np.array([[1, 0], [2, 2]], np.int64),
        np.array(1, np.int64),  # a scalar index drops the axis
        np.array([0, 2], np.int32),
    ],
)
@pytest.mark.parametrize("constant", [False, True])
def test_onnx_gather_matches_onnxruntime(axis: int, indices: np.ndarray, constant: bool) -> None:
    model, feeds = onnx_gather_model((3, 3, 4), axis, indices, constant)
    converted = check_onnx_gather(model, feeds)
    positions = converted.tensors[converted.nodes[0].inputs[1]]
    # Constant indices become an int32 constant; indices from a graph input keep their type.
    assert positions.dtype is (DType.INT32 if constant else DType.INT64 if indices.dtype == np.int64 else DType.INT32)


@pytest.mark.parametrize("axis", [0, 1])
def test_onnx_negative_constant_indices_are_normalized(axis: int) -> None:
    indices = np.array([-1, 0, -3, 2, -2], np.int64)
    model, feeds = onnx_gather_model((3, 3), axis, indices, constant=True)
    converted = check_onnx_gather(model, feeds)
    positions = converted.tensors[converted.nodes[0].inputs[1]]
    assert positions.data is not None and positions.data.tolist() == [2, 0, 0, 2, 1]


def test_onnx_embedding_with_int64_token_ids() -> None:
    """An embedding: a constant table, int64 token ids from a graph input; a negative id is a run-time error
    (ONNX would wrap it; TFLite's GATHER and opbridge's do not)."""
    ids = np.array([[5, 0, 9], [1, 1, 7]], np.int64)
    model, feeds = onnx_gather_model((10, 6), 0, ids, constant=False, data_constant=True)
    converted = check_onnx_gather(model, feeds)
    with pytest.raises(InvalidInputError, match=re.escape("holds -1 at flat index 0, outside [0, 10)")):
        ReferenceInterpreter(converted, available_registry_context()).run([np.array([[-1, 0, 0], [0, 0, 0]], np.int64)])
    check_c_matches_reference(
        gather_graph(DType.FLOAT32, (10, 6), (2, 3), 0, DType.INT64, ids), REGISTRY, float_ulp_tolerance=0
    )


def test_onnx_out_of_range_constant_indices_are_refused() -> None:
    model, _ = onnx_gather_model((3, 3), 0, np.array([0, 3], np.int64), constant=True)
    with pytest.raises(UnsupportedOperatorError, match=r"Gather \"gather\"\): constant indices \[0, 3\] outside"):
        read_onnx_model(model, available_registry_context())


def test_onnx_gather_keeps_int8_quantization() -> None:
    conversion = OnnxConversion("gather", available_registry_context(), "test")
    quantization = Quantization((0.05,), (-3,))
    conversion.add_tensor("x", DType.INT8, (4, 2), quantization=quantization)
    conversion.add_tensor("indices", DType.INT64, (3,), np.array([3, -1, 0], np.int64))
    convert_gather(conversion, OnnxNode("Gather", "", "gather", ("x", "indices"), ("y",), {}, 0))
    output = conversion.tensor(conversion.value("y"))
    assert output.shape == (3, 2) and output.quantization == quantization
