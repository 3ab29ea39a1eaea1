# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE (float32 and int8, NHWC) on drawn shapes and block sizes: reference == TFLite Micro bit for bit,
C module == reference byte for byte, typed errors for unequal int8 quantization and block sizes that do not fit;
ONNX DepthToSpace keeps converting through RESHAPE, TRANSPOSE, RESHAPE (ops/transpose/onnx.py).

The runs shared with SPACE_TO_DEPTH are in opbridge_testing.block_size_tests."""

import functools

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import strategies as st
from onnx import TensorProto, helper
from opbridge_testing import strategies
from opbridge_testing.block_size_tests import REGISTRY, block_size_graph, block_size_tests, check_block_size_refused
from opbridge_testing.operators import available_registry_context

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph
from opbridge.ops.depth_to_space.reference import depth_to_space

# Operators its graphs gain in conversion (tests/architecture/operator_deps.py):
# ONNX's DepthToSpace converts to RESHAPE, TRANSPOSE, RESHAPE (ops/transpose/onnx.py).
USES_OPERATORS = ("reshape", "transpose")

CODE = schema.BuiltinOperator.DEPTH_TO_SPACE


def output_shape(shape: tuple[int, int, int, int], block: int) -> tuple[int, int, int, int]:
    n, h, w, c = shape
    return (n, h * block, w * block, c // (block * block))


# (shape, block, dtype=float32, quantization=(None, None), output_shape=output_shape(shape, block)) -> Graph
depth_to_space_graph = functools.partial(block_size_graph, "DEPTH_TO_SPACE", output_shape)


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


# Drawn graphs against TFLite Micro and the C module; unequal int8 quantization refused.
(
    test_reference_matches_tflite_micro,
    test_c_module_matches_reference,
    test_unequal_int8_quantization_is_refused,
) = block_size_tests(
    "DEPTH_TO_SPACE",
    CODE,
    schema.BuiltinOptions.DepthToSpaceOptions,
    schema.DepthToSpaceOptionsT,
    draw_graph,
    depth_to_space_graph,
)


def test_the_order_is_dcr() -> None:
    # One pixel of 8 channels, block 2: channels (y * 2 + x) * 2 + d go to (y, x), channel d.
    values = np.arange(8, dtype=np.float32).reshape(1, 1, 1, 8)
    expected = np.array([[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]], np.float32)
    np.testing.assert_array_equal(depth_to_space(values, 2), expected)
    (ours,) = ReferenceInterpreter(depth_to_space_graph((1, 1, 1, 8), 2), REGISTRY).run([values])
    np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize(("block", "channels"), [(0, 4), (-2, 4), (2, 6), (3, 4)])
def test_block_sizes_that_do_not_fit_are_refused(block: int, channels: int) -> None:
    graph = depth_to_space_graph((1, 2, 2, channels), block, output_shape=(1, 4, 4, 1))
    check_block_size_refused("DEPTH_TO_SPACE", graph, block, (1, 2, 2, channels))


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
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    values = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    (theirs,) = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": values})
    np.testing.assert_array_equal(ours, theirs)
    if mode == "DCR":  # ONNX's DCR is TFLite's order: the same as DEPTH_TO_SPACE on NHWC
        nhwc = depth_to_space(values.transpose(0, 2, 3, 1), 2)
        np.testing.assert_array_equal(nhwc.transpose(0, 3, 1, 2), theirs)
