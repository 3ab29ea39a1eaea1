# SPDX-License-Identifier: Apache-2.0
"""TILE on drawn shapes, multiples and element types: reference == LiteRT's TILE (TFLite Micro has no TILE
kernel), C kernel == reference bit for bit; ONNX Tile converts to it and equals onnxruntime."""

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
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.c.golden_inputs import seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.tile.emit_c import tile_lattice
from opbridge.ops.tile.onnx import convert_tile
from opbridge.ops.tile.reference import TILE_DTYPES

REGISTRY = available_operator_registry()


def tile_graph(
    dtype: DType,
    shape: tuple[int, ...],
    multiples: list[int],
    multiples_dtype: DType = DType.INT32,
    quantization: Quantization | None = None,
    constant: bool = True,
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantization)
    data = np.array(multiples, multiples_dtype.numpy) if constant else None
    m = builder.tensor("multiples", multiples_dtype, (len(shape),), None, data)
    y = builder.tensor("y", dtype, tuple(s * k for s, k in zip(shape, multiples, strict=True)), quantization)
    return builder.single_node_graph("TILE", [x, m], [y], None)


def draw_graph(data: st.DataObject, min_rank: int, max_rank: int, min_multiple: int = 1) -> Graph:
    dtype = data.draw(st.sampled_from(TILE_DTYPES))
    rank = data.draw(st.integers(min_rank, max_rank))
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(rank))
    multiples = [data.draw(st.integers(min_multiple, 3)) for _ in range(rank)]
    multiples_dtype = data.draw(st.sampled_from([DType.INT32, DType.INT64]))
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    return tile_graph(dtype, shape, multiples, multiples_dtype, quantization)


def run_litert(model: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """LiteRT's interpreter (its builtin kernels: the reference resolver lacks TILE version 3)."""
    interpreter = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN)
    interpreter.allocate_tensors()
    for detail, values in zip(interpreter.get_input_details(), inputs, strict=True):
        interpreter.set_tensor(detail["index"], values)
    interpreter.invoke()
    return [np.array(interpreter.get_tensor(detail["index"])) for detail in interpreter.get_output_details()]


def check_reference_matches_litert(graph: Graph) -> None:
    """check_reference_matches_tflite_micro's steps, with LiteRT as the peer: the graph written as a
    LiteRT model, read back by opbridge's frontend, both run on seeded inputs, outputs compared as bits."""
    version = 3 if graph.tensors[graph.inputs[0]].dtype is DType.INT8 else 1  # TFLite's op_version.cc
    model = single_op_model(graph, schema.BuiltinOperator.TILE, version)
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "tile.tflite")
    interpreter = ReferenceInterpreter(parsed, REGISTRY)
    input_sets = [seeded_inputs(t, 3, seed=1 + i) for i, t in enumerate(parsed.input_tensors())]
    for case in range(3):
        inputs = [values[case] for values in input_sets]
        (ours,) = interpreter.run(inputs)
        (theirs,) = run_litert(model, inputs)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_array_equal(
            ours.reshape(-1).view(np.uint8), theirs.reshape(-1).view(np.uint8), err_msg=f"case {case}"
        )


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_reference_matches_litert(data: st.DataObject) -> None:
    check_reference_matches_litert(draw_graph(data, 1, 5))


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_c_kernel_equals_reference(data: st.DataObject) -> None:
    """float32, int8 and int32, ranks 0 to 6, multiples from 1 (the golden program has no empty tensors)."""
    graph = draw_graph(data, 0, 6)
    exact = 0 if graph.tensors[graph.inputs[0]].dtype is DType.FLOAT32 else None  # others: byte for byte anyway
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=exact)


def test_the_lattice_drops_and_merges_untiled_axes() -> None:
    # [2, 3, 4] by [2, 1, 1]: one axis of 24 elements tiled twice.
    assert tile_lattice((2, 3, 4), (2, 1, 1)) == [(24, 2)]
    assert tile_lattice((1, 5, 1, 3), (1, 1, 4, 1)) == [(5, 1), (3, 4)]
    assert tile_lattice((1, 1), (1, 1)) == []
    assert tile_lattice((2, 3), (1, 2)) == [(2, 1), (3, 2)]
    # Eight axes, every other one untiled: the kernel sees four (module tensors have at most six).
    assert tile_lattice((2, 1, 2, 2, 1, 2, 2, 1), (2, 1, 1, 3, 1, 1, 2, 2)) == [(4, 2), (4, 3), (2, 2), (1, 2)]


def test_run_time_and_negative_multiples_are_refused() -> None:
    graph = tile_graph(DType.FLOAT32, (2, 3), [2, 1], constant=False)
    with pytest.raises(OpbridgeError, match=r"node 0 \(TILE.*multiples.*run time"):
        check_c_matches_reference(graph, REGISTRY)
    graph = tile_graph(DType.FLOAT32, (2, 3), [2, 1])
    graph.tensors[1].data = np.array([-1, 2], np.int32)
    with pytest.raises(OpbridgeError, match=r"node 0 \(TILE.*>= 0"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((2, 3), np.float32)])


def onnx_tile_model(shape: tuple[int, ...], repeats: list[int], element_type: int) -> bytes:
    node = helper.make_node("Tile", ["x", "repeats"], ["y"], name="tile")
    graph = helper.make_graph(
        [node],
        "tile",
        [helper.make_tensor_value_info("x", element_type, list(shape))],
        [helper.make_tensor_value_info("y", element_type, None)],
        initializer=[helper.make_tensor("repeats", TensorProto.INT64, [len(repeats)], repeats)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


@pytest.mark.parametrize(
    ("shape", "repeats"),
    [
        ((2, 3), [1, 1]),
        ((2, 3), [2, 3]),
        ((2, 3), [3, 1]),
        ((4,), [5]),
        ((2, 1, 3), [2, 4, 1]),
        ((1, 2, 3, 2), [2, 1, 2, 3]),
        ((2, 3), [0, 2]),
    ],
)
@pytest.mark.parametrize("dtype", [DType.FLOAT32, DType.INT32, DType.INT8])
def test_onnx_tile_matches_onnxruntime(shape: tuple[int, ...], repeats: list[int], dtype: DType) -> None:
    element_type = {DType.FLOAT32: TensorProto.FLOAT, DType.INT32: TensorProto.INT32, DType.INT8: TensorProto.INT8}
    model = onnx_tile_model(shape, repeats, element_type[dtype])
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["TILE"]
    multiples = converted.tensors[converted.nodes[0].inputs[1]]
    assert multiples.dtype is DType.INT32 and list(multiples.data) == repeats
    (values,) = seeded_inputs(converted.input_tensors()[0], 1, seed=3)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": values})
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)


def test_onnx_tile_keeps_int8_quantization() -> None:
    conversion = OnnxConversion("tile", available_registry_context(), "test")
    quantization = Quantization((0.05,), (-3,))
    conversion.add_tensor("x", DType.INT8, (2, 2), quantization=quantization)
    conversion.add_tensor("repeats", DType.INT64, (2,), np.array([1, 2], np.int64))
    convert_tile(conversion, OnnxNode("Tile", "", "tile", ("x", "repeats"), ("y",), {}, 0))
    output = conversion.tensor(conversion.value("y"))
    assert output.shape == (2, 4) and output.quantization == quantization
