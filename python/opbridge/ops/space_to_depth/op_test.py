# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH (float32 and int8, NHWC) on drawn shapes and block sizes: reference == TFLite Micro bit for bit,
C module == reference byte for byte, the inverse of DEPTH_TO_SPACE, typed errors for unequal int8 quantization
and block sizes that do not fit; ONNX SpaceToDepth (float32 and int8) converted == onnxruntime.

The runs shared with DEPTH_TO_SPACE are in opbridge_testing.block_size_tests."""

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
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph
from opbridge.ops.depth_to_space.reference import depth_to_space, space_to_depth

# Operators its graphs gain in conversion (tests/architecture/operator_deps.py):
# ONNX's NCHW layout adds TRANSPOSEs and RESHAPEs.
USES_OPERATORS = ("reshape", "transpose")

CODE = schema.BuiltinOperator.SPACE_TO_DEPTH


def output_shape(shape: tuple[int, int, int, int], block: int) -> tuple[int, int, int, int]:
    n, h, w, c = shape
    return (n, h // block, w // block, c * block * block)


# (shape, block, dtype=float32, quantization=(None, None), output_shape=output_shape(shape, block)) -> Graph
space_to_depth_graph = functools.partial(block_size_graph, "SPACE_TO_DEPTH", output_shape)


def draw_graph(data: st.DataObject) -> Graph:
    dtype = data.draw(st.sampled_from([DType.FLOAT32, DType.INT8]))
    block = data.draw(st.integers(1, 3))
    shape = (
        data.draw(st.integers(1, 2)),
        block * data.draw(st.integers(1, 3)),
        block * data.draw(st.integers(1, 3)),
        data.draw(st.integers(1, 4)),
    )
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    return space_to_depth_graph(shape, block, dtype, (quantization, quantization))


# Drawn graphs against TFLite Micro and the C module; unequal int8 quantization refused.
(
    test_reference_matches_tflite_micro,
    test_c_module_matches_reference,
    test_unequal_int8_quantization_is_refused,
) = block_size_tests(
    "SPACE_TO_DEPTH",
    CODE,
    schema.BuiltinOptions.SpaceToDepthOptions,
    schema.SpaceToDepthOptionsT,
    draw_graph,
    space_to_depth_graph,
)


def test_the_order_is_dcr_and_depth_to_space_inverts_it() -> None:
    # A 2 x 2 image of 2 channels, block 2: pixel (y, x), channel c goes to channel (y * 2 + x) * 2 + c.
    values = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)
    expected = np.arange(8, dtype=np.float32).reshape(1, 1, 1, 8)
    np.testing.assert_array_equal(space_to_depth(values, 2), expected)
    (ours,) = ReferenceInterpreter(space_to_depth_graph((1, 2, 2, 2), 2), REGISTRY).run([values])
    np.testing.assert_array_equal(ours, expected)
    drawn = np.random.default_rng(2).standard_normal((2, 6, 9, 5)).astype(np.float32)
    np.testing.assert_array_equal(depth_to_space(space_to_depth(drawn, 3), 3), drawn)


@pytest.mark.parametrize(("block", "height"), [(0, 4), (-2, 4), (2, 3), (3, 4)])
def test_block_sizes_that_do_not_fit_are_refused(block: int, height: int) -> None:
    graph = space_to_depth_graph((1, height, 4, 1), block, output_shape=(1, 2, 2, 4))
    check_block_size_refused("SPACE_TO_DEPTH", graph, block, (1, height, 4, 1))


def onnx_model(shape: tuple[int, ...], block: int, element_type: int = TensorProto.FLOAT) -> bytes:
    node = helper.make_node("SpaceToDepth", ["x"], ["y"], name="s2d", blocksize=block)
    graph = helper.make_graph(
        [node],
        "s2d",
        [helper.make_tensor_value_info("x", element_type, list(shape))],
        [helper.make_tensor_value_info("y", element_type, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()


@pytest.mark.parametrize(("shape", "block"), [((1, 3, 4, 6), 2), ((2, 2, 6, 3), 3), ((1, 5, 2, 2), 1)])
@pytest.mark.parametrize("element_type", [TensorProto.FLOAT, TensorProto.INT8])
def test_onnx_space_to_depth_matches_onnxruntime(shape: tuple[int, ...], block: int, element_type: int) -> None:
    model = onnx_model(shape, block, element_type)
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert "SPACE_TO_DEPTH" in [n.op_type for n in converted.nodes]
    rng = np.random.default_rng(4)
    if element_type == TensorProto.FLOAT:
        values = rng.standard_normal(shape).astype(np.float32)
    else:
        values = rng.integers(-128, 128, size=shape).astype(np.int8)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    (theirs,) = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": values})
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


def test_onnx_block_size_that_does_not_fit_is_refused() -> None:
    with pytest.raises(UnsupportedOperatorError, match=r"s2d.*blocksize 2 for height 3"):
        read_onnx_model(onnx_model((1, 2, 3, 4), 2), available_registry_context())
