# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE (float32 and int8, NHWC) on drawn shapes and block sizes: reference == TFLite Micro bit for bit,
C module == reference byte for byte, typed errors for unequal int8 quantization and block sizes that do not fit;
ONNX DepthToSpace keeps converting through RESHAPE, TRANSPOSE, RESHAPE (ops/transpose/onnx.py)."""

import pathlib
import tempfile

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from opbridge_testing import strategies
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.converter import compile_graph
from opbridge.errors import OpbridgeError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.depth_to_space.attributes import BlockSizeAttributes
from opbridge.ops.depth_to_space.reference import depth_to_space
from opbridge.registry import default_registry_context

REGISTRY = build_builtin_registry()
CODE = schema.BuiltinOperator.DEPTH_TO_SPACE


def depth_to_space_graph(
    shape: tuple[int, int, int, int],
    block: int,
    dtype: DType = DType.FLOAT32,
    quantization: tuple[Quantization | None, Quantization | None] = (None, None),
    output_shape: tuple[int, ...] | None = None,
) -> Graph:
    n, h, w, c = shape
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, quantization[0])
    if output_shape is None:
        output_shape = (n, h * block, w * block, c // (block * block))
    y = builder.tensor("output", dtype, output_shape, quantization[1])
    return builder.single_node_graph("DEPTH_TO_SPACE", [x], [y], BlockSizeAttributes(block_size=block))


def draw_graph(data: st.DataObject) -> Graph:
    dtype = data.draw(st.sampled_from([DType.FLOAT32, DType.INT8]))
    block = data.draw(st.integers(1, 3))
    shape = (
        data.draw(st.integers(1, 2)),
        data.draw(st.integers(1, 4)),
        data.draw(st.integers(1, 4)),
        block * block * data.draw(st.integers(1, 3)),
    )
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    return depth_to_space_graph(shape, block, dtype, (quantization, quantization))


def options(graph: Graph) -> schema.DepthToSpaceOptionsT:
    packed = schema.DepthToSpaceOptionsT()
    packed.blockSize = graph.nodes[0].attributes.block_size
    return packed


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    version = 2 if graph.tensors[0].dtype is DType.INT8 else 1
    check_reference_matches_tflite_micro(
        graph, REGISTRY, CODE, version, schema.BuiltinOptions.DepthToSpaceOptions, options(graph)
    )


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_c_module_matches_reference(data: st.DataObject) -> None:
    graph = draw_graph(data)
    exact = 0 if graph.tensors[0].dtype is DType.FLOAT32 else None  # int8: byte for byte anyway
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=exact)


def test_the_order_is_dcr() -> None:
    # One pixel of 8 channels, block 2: channels (y * 2 + x) * 2 + d go to (y, x), channel d.
    values = np.arange(8, dtype=np.float32).reshape(1, 1, 1, 8)
    expected = np.array([[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]], np.float32)
    np.testing.assert_array_equal(depth_to_space(values, 2), expected)
    (ours,) = ReferenceInterpreter(depth_to_space_graph((1, 1, 1, 8), 2), REGISTRY).run([values])
    np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize(
    ("input_q", "output_q"),
    [
        (Quantization((0.1,), (3,)), Quantization((0.2,), (3,))),  # scales differ
        (Quantization((0.1,), (3,)), Quantization((0.1,), (4,))),  # zero points differ
    ],
)
def test_unequal_int8_quantization_is_refused(input_q: Quantization, output_q: Quantization) -> None:
    graph = depth_to_space_graph((1, 2, 2, 4), 2, DType.INT8, (input_q, output_q))
    values = np.arange(16, dtype=np.int8).reshape(1, 2, 2, 4)
    with pytest.raises(OpbridgeError, match=r"node 0 \(DEPTH_TO_SPACE.*quantization differ"):
        ReferenceInterpreter(graph, REGISTRY).run([values])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=r"quantization differ"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


@pytest.mark.parametrize(("block", "channels"), [(0, 4), (-2, 4), (2, 6), (3, 4)])
def test_block_sizes_that_do_not_fit_are_refused(block: int, channels: int) -> None:
    graph = depth_to_space_graph((1, 2, 2, channels), block, output_shape=(1, 4, 4, 1))
    with pytest.raises(OpbridgeError, match=rf"DEPTH_TO_SPACE.*block_size {block}"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 2, 2, channels), np.float32)])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=rf"block_size {block}"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_onnx_depth_to_space_still_converts(mode: str) -> None:
    shape = (1, 8, 3, 2)
    node = helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2, mode=mode)
    graph = helper.make_graph(
        [node],
        "d2s",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()
    context = default_registry_context()
    converted = read_onnx_model(model, context)
    values = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    (theirs,) = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": values})
    np.testing.assert_array_equal(ours, theirs)
    if mode == "DCR":  # ONNX's DCR is TFLite's order: the same as DEPTH_TO_SPACE on NHWC
        nhwc = depth_to_space(values.transpose(0, 2, 3, 1), 2)
        np.testing.assert_array_equal(nhwc.transpose(0, 3, 1, 2), theirs)
