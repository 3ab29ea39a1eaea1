# SPDX-License-Identifier: Apache-2.0
"""ONNX AveragePool with explicit pads (ShuffleNet's 3x3 stride-2 pools with pads 1 and count_include_pad=0),
on drawn shapes, kernels, strides and pads, both count_include_pad values, against onnxruntime:

- float32: the reference within 1e-5 relative (onnxruntime sums each window in its own order), and the
  emitted C against the reference (host gcc);
- int8 (DequantizeLinear -> AveragePool -> QuantizeLinear of one scale and zero point, as quantize_static
  writes it): fused when the model is read (qdq_fusion's QLINEAR_GROUPS) into QLinearAveragePool, as
  onnxruntime fuses it, whose converter pools the int8 input itself (one scale and zero point): the int8
  kernel (TFLite's integer sum over the covered positions, divided by their count, rounding half away from
  zero), within one int8 step of onnxruntime's QLinearAveragePool (float32: the dequantized values summed,
  divided by the count and by the output scale, rounded half to even: docs/onnx.md, "AveragePool and LRN").
"""

import pathlib

import numpy as np
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import OpbridgeError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.registry import default_registry_context
from opbridge_testing.single_op import run_golden_program

CONTEXT = default_registry_context()
FLOAT_TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[int], dict]:
    """An NCHW input shape and AveragePool attributes with explicit pads (each smaller than the kernel)."""
    kernel = [draw(st.integers(1, 4)), draw(st.integers(1, 4))]
    pads = [draw(st.integers(0, k - 1)) for k in kernel] + [draw(st.integers(0, k - 1)) for k in kernel]
    strides = [draw(st.integers(1, 3)), draw(st.integers(1, 3))]
    height = draw(st.integers(max(1, kernel[0] - pads[0] - pads[2]), 9))
    width = draw(st.integers(max(1, kernel[1] - pads[1] - pads[3]), 9))
    shape = [draw(st.integers(1, 2)), draw(st.integers(1, 5)), height, width]
    attributes = {
        "kernel_shape": kernel,
        "strides": strides,
        "pads": pads,
        "count_include_pad": draw(st.sampled_from([0, 1])),
    }
    return shape, attributes


def float_model(shape: list[int], attributes: dict) -> bytes:
    node = helper.make_node("AveragePool", ["x"], ["y"], name="pool", **attributes)
    graph = helper.make_graph(
        [node],
        "pool",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_empty_tensor_value_info("y")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def qdq_model(shape: list[int], attributes: dict, scale: float, zero_point: int) -> bytes:
    nodes = [
        helper.make_node("DequantizeLinear", ["q", "scale", "zero"], ["x"]),
        helper.make_node("AveragePool", ["x"], ["pooled"], name="pool", **attributes),
        helper.make_node("QuantizeLinear", ["pooled", "scale", "zero"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "qdq_pool",
        [helper.make_tensor_value_info("q", TensorProto.INT8, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT8, None)],
        [
            numpy_helper.from_array(np.array(scale, np.float32), "scale"),
            numpy_helper.from_array(np.array(zero_point, np.int8), "zero"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def onnxruntime_output(model: bytes, name: str, values: np.ndarray) -> np.ndarray:
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    return session.run(None, {name: values})[0]


@settings(max_examples=60, deadline=None)
@given(pool=pools(), seed=st.integers(0, 2**32 - 1))
def test_float32_pads_match_onnxruntime(pool: tuple[list[int], dict], seed: int) -> None:
    shape, attributes = pool
    model = float_model(shape, attributes)
    graph = read_onnx_model(model, CONTEXT, source="pool.onnx")
    ops = [node.op_type for node in graph.nodes]
    # count_include_pad=0: the pool's own pads (no PAD); =1: a PAD of zeros, counted, before a VALID pool.
    pads = any(attributes["pads"])
    assert ops.count("PAD") == (1 if pads and attributes["count_include_pad"] else 0), ops
    values = np.random.default_rng(seed).uniform(-4, 4, size=shape).astype(np.float32)
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([values])
    np.testing.assert_allclose(ours, onnxruntime_output(model, "x", values), **FLOAT_TOLERANCE)


@settings(max_examples=40, deadline=None)
@given(
    pool=pools(),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([0.02, 0.1, 0.0137]),
    zero_point=st.integers(-20, 20),
)
def test_int8_qdq_pads_run_on_int8_within_one_step_of_onnxruntime(
    pool: tuple[list[int], dict], seed: int, scale: float, zero_point: int
) -> None:
    shape, attributes = pool
    attributes = {**attributes, "count_include_pad": 0}
    model = qdq_model(shape, attributes, scale, zero_point)
    graph = read_onnx_model(model, CONTEXT, source="qdq_pool.onnx")
    # Fused at read time: the int8 pool between the layout's transposes, no DEQUANTIZE or QUANTIZE left.
    ops = [node.op_type for node in graph.nodes]
    assert ops == ["TRANSPOSE", "AVERAGE_POOL_2D", "TRANSPOSE"], ops
    (pool_node,) = [node for node in graph.nodes if node.op_type == "AVERAGE_POOL_2D"]
    assert graph.tensor(pool_node.inputs[0]).dtype.value == "int8"
    assert graph.tensor(pool_node.outputs[0]).dtype.value == "int8"
    q = np.random.default_rng(seed).integers(-128, 128, size=shape).astype(np.int8)
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([q])
    theirs = onnxruntime_output(model, "q", q)
    assert ours.shape == theirs.shape
    assert np.abs(ours.astype(np.int32) - theirs.astype(np.int32)).max() <= 1


@pytest.mark.parametrize(
    ("shape", "attributes"),
    [
        # ShuffleNet's pool (3x3, stride 2, pads 1, count_include_pad 0) on a map of odd and even sizes.
        ([1, 3, 7, 8], {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
        # Uneven pads, Inception v1's 7x7 with pads only after, and a 1-D pool.
        ([1, 2, 6, 5], {"kernel_shape": [3, 2], "strides": [1, 2], "pads": [2, 0, 0, 1]}),
        ([1, 4, 7, 7], {"kernel_shape": [7, 7], "strides": [1, 1], "pads": [0, 0, 1, 1]}),
        ([1, 3, 9], {"kernel_shape": [3], "strides": [2], "pads": [1, 2]}),
    ],
)
def test_float32_pads_compile_to_c_that_matches_the_reference(
    shape: list[int], attributes: dict, tmp_path: pathlib.Path
) -> None:
    model = float_model(shape, attributes)
    values = np.random.default_rng(3).uniform(-4, 4, size=shape).astype(np.float32)
    graph = read_onnx_model(model, CONTEXT, source="pool.onnx")
    assert "PAD" not in [node.op_type for node in graph.nodes]
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([values])
    np.testing.assert_allclose(ours, onnxruntime_output(model, "x", values), **FLOAT_TOLERANCE)
    path = tmp_path / "pool.onnx"
    path.write_bytes(model)
    golden = tmp_path / "golden.c"
    config = ConvertArgs(model=path, output_dir=tmp_path / "module", prefix="pool", golden_test=golden)
    AotConverter(config, registry_context=CONTEXT).convert()
    assert "0 failures" in run_golden_program(tmp_path / "module", golden)


def test_int8_pads_compile_to_c_that_matches_the_reference(tmp_path: pathlib.Path) -> None:
    attributes = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    path = tmp_path / "qdq_pool.onnx"
    path.write_bytes(qdq_model([1, 5, 7, 6], attributes, 0.05, -3))
    golden = tmp_path / "golden.c"
    config = ConvertArgs(model=path, output_dir=tmp_path / "module", prefix="qpool", golden_test=golden)
    AotConverter(config, registry_context=CONTEXT).convert()
    assert "0 failures" in run_golden_program(tmp_path / "module", golden)


def test_pads_not_smaller_than_the_kernel_are_refused() -> None:
    model = float_model([1, 2, 6, 6], {"kernel_shape": [2, 2], "pads": [2, 0, 0, 0]})
    with pytest.raises(OpbridgeError, match=r"(?s)pads \[2, 0, 0, 0\].*smaller than the filter"):
        read_onnx_model(model, CONTEXT, source="pool.onnx")
